import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import type { PlatformEvent } from '../../src/sandbox/events';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks';

const auth = { authorization: 'Bearer svc_sandbox_token' };
type Method = 'GET' | 'POST' | 'PATCH';

function build() {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  const events: PlatformEvent[] = [];
  ctx.events.on((e) => events.push(e));
  const api = (method: Method, url: string, payload?: object, headers: Record<string, string> = auth) =>
    sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const dept = (name: string, type = 'department') => ctx.db.insert(KIND.groups, { name, type, is_open: null, created_at: ctx.now() });
  const user = (first: string, groupIds: number[] = [], fields: Partial<UserRecord> = {}) =>
    ctx.db.insert(KIND.users, newUser(ctx, { first_name: first, last_name: 'Test', email: `${first}@x.example`, memberships: groupIds.map((group_id) => ({ group_id, is_manager: false })), ...fields }));
  const achievement = async (body: object = { type: 'custom', title: 'Helper', is_published: true }) => (await api('POST', '/achievements', body)).json().data as { id: number };
  const award = (id: number, awards: object[], headers?: Record<string, string>) => api('POST', `/achievements/${id}/awards`, { awards }, headers);
  return { ...sandbox, ctx, clock, events, api, dept, user, achievement, award };
}

const awarded = (events: PlatformEvent[]) => events.filter((e) => e.event === 'achievement.awarded');

describe('awards (spec: Achievements, award rules; Award)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  it('creates awards in the order sent, answering 201 with the Award shape (spec: Achievements; Award)', async () => {
    s = build();
    const sales = s.dept('Sales');
    const [ada, bob] = [s.user('ada', [sales.id]), s.user('bob')];
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: bob.id, awarded_at: '2026-11-01' }, { user_id: ada.id, awarded_at: '2026-11-02', department_id: sales.id }]);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.map((w: { user: { id: number } }) => w.user.id)).toEqual([bob.id, ada.id]);
    expect(data[1]).toMatchObject({
      awarded_at: '2026-11-02T00:00:00+01:00',
      is_manually_added: true,
      department: { id: sales.id, name: 'Sales', type: 'department' },
      assigned_by: { id: 2, type: 'customer' },
      achievement: { id: a.id, title: 'Helper', awarded_users_count: 2 },
    });
    expect(data[0].department).toBeNull();
  });

  it('answers 422 on a draft achievement (spec: Achievement publication state)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement({ type: 'custom', title: 'Draft' });
    expect((await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }])).statusCode).toBe(422);
    expect(awarded(s.events)).toHaveLength(0);
  });

  it('awards nobody when any row is invalid, naming the row as awards.<index>.<field> (spec: Achievements, award rule 2)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }, { user_id: 999, awarded_at: '2026-11-22' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('awards.1.user_id') });
    expect((await s.api('GET', `/achievements/${a.id}/awards`)).json().meta.total).toBe(0);
    expect(awarded(s.events)).toHaveLength(0);
    const missingDate = await s.award(a.id, [{ user_id: ada.id }]);
    expect(missingDate.json().message).toContain('awards.0.awarded_at');
  });

  it.each([
    ['a kiosk user', { kind: 'kiosk' }],
    ['a bot user', { kind: 'bot' }],
    ['a pending user', { status: 'pending' }],
    ['a deactivated user', { status: 'deactivated' }],
  ] as const)('answers 422 for %s (spec: Achievements, award request body)', async (_name, fields) => {
    s = build();
    const target = s.user('kim', [], fields);
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: target.id, awarded_at: '2026-11-22' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('awards.0.user_id');
  });

  it("answers 422 when department_id is not one of the user's departments (spec: Errors)", async () => {
    s = build();
    const [sales, ops, prof] = [s.dept('Sales'), s.dept('Ops'), s.dept('Engineer', 'profession')];
    const ada = s.user('ada', [sales.id, prof.id]);
    const a = await s.achievement();
    expect((await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: ops.id }])).json().message).toContain('awards.0.department_id');
    expect((await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: prof.id }])).statusCode).toBe(422);
  });

  it('requires department_id for employee of the month (spec: Achievements, award request body)', async () => {
    s = build();
    const sales = s.dept('Sales');
    const ada = s.user('ada', [sales.id]);
    const a = await s.achievement({ type: 'employee_of_the_month', is_published: true });
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('awards.0.department_id');
    expect((await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: sales.id }])).statusCode).toBe(201);
  });

  it('returns the existing award for an identical row, creating none and firing nothing (spec: Achievements, award rule 3)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const first = (await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }])).json().data[0];
    s.clock.advance(60_000);
    const again = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22T15:30:00+01:00' }]);
    expect(again.statusCode).toBe(201);
    expect(again.json().data[0]).toMatchObject({ id: first.id, created_at: first.created_at });
    expect(awarded(s.events)).toHaveLength(1);
    expect((await s.api('GET', `/achievements/${a.id}`)).json().data.awarded_users_count).toBe(1);
  });

  it('answers one award for two identical rows in one request (spec: Achievements, award rule 3)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }, { user_id: ada.id, awarded_at: '2026-11-22' }]);
    const [x, y] = res.json().data;
    expect(y.id).toBe(x.id);
    expect(awarded(s.events)).toHaveLength(1);
  });

  it('answers 422 for an empty awards array (spec: Achievements, award request body)', async () => {
    s = build();
    const a = await s.achievement();
    const res = await s.award(a.id, []);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('awards');
  });

  it('makes a new award for the same user on another day (spec: Achievements, award rule 4)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }, { user_id: ada.id, awarded_at: '2026-10-22' }]);
    const [x, y] = res.json().data;
    expect(x.id).not.toBe(y.id);
    expect(awarded(s.events)).toHaveLength(2);
  });

  it('drops a time sent with awarded_at and answers midnight in the customer zone (spec: Award.awarded_at)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const summer = (await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-07-04T18:45:00+02:00' }])).json().data[0];
    expect(summer.awarded_at).toBe('2026-07-04T00:00:00+02:00');
  });

  it('assigns API awards to the company user whichever user the token acts as (spec: Achievements, award rule 5)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    const token = (await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'sys', scopes: ['write:achievements'], attribution: 'system' } })).json().token as string;
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }], { authorization: `Bearer ${token}` });
    expect(res.json().data[0].assigned_by).toMatchObject({ id: 2, type: 'customer', name: 'Sandbox GmbH' });
  });

  it('assigns awards to the system user on a platform without a company user (spec: Award.assigned_by)', async () => {
    s = build();
    s.ctx.updateSettings({ company_user: false });
    const ada = s.user('ada');
    const a = await s.achievement();
    const res = await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    expect(res.json().data[0].assigned_by).toMatchObject({ id: 3, type: 'system' });
  });

  it('fires achievement.awarded per new award with achievement and user embedded, filterable by achievement (spec: Events)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await s.achievement();
    await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    const [event] = awarded(s.events);
    expect(event?.entityIds).toEqual({ achievement: a.id });
    expect(event?.payload).toMatchObject({ is_manually_added: true, user: { id: ada.id, name: 'ada Test' }, achievement: { id: a.id, awarded_users_count: 1 } });
    expect(PAYLOAD_SCHEMAS['achievement.awarded'].safeParse(event?.payload).success).toBe(true);
  });

  it('lists awards newest first with user embedded, meta without links, since on created_at (spec: Achievements; Pagination)', async () => {
    s = build();
    const [ada, bob] = [s.user('ada'), s.user('bob')];
    const a = await s.achievement();
    await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    s.clock.advance(60_000);
    await s.award(a.id, [{ user_id: bob.id, awarded_at: '2020-01-01' }]);
    const list = (await s.api('GET', `/achievements/${a.id}/awards`)).json();
    expect(list.data.map((w: { user: { id: number } }) => w.user.id)).toEqual([bob.id, ada.id]);
    expect(list.meta).toEqual({ current_page: 1, per_page: 25, total: 2 });
    expect(list.links).toBeUndefined();
    const since = (await s.api('GET', `/achievements/${a.id}/awards?since=${encodeURIComponent('2026-11-22T09:00:30+01:00')}`)).json();
    expect(since.data.map((w: { user: { id: number } }) => w.user.id)).toEqual([bob.id]);
    const paged = (await s.api('GET', `/achievements/${a.id}/awards?per_page=1&page=2`)).json();
    expect(paged.data.map((w: { user: { id: number } }) => w.user.id)).toEqual([ada.id]);
  });

  it('leaves awards of deleted users out of the award list (spec: Achievements)', async () => {
    s = build();
    const [ada, bob] = [s.user('ada'), s.user('bob')];
    const a = await s.achievement();
    await s.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }, { user_id: bob.id, awarded_at: '2026-11-22' }]);
    s.ctx.db.update(KIND.users, bob.id, { deleted_at: s.ctx.now() });
    const list = (await s.api('GET', `/achievements/${a.id}/awards`)).json();
    expect(list.data.map((w: { user: { id: number } }) => w.user.id)).toEqual([ada.id]);
  });

  it("lists a user's awards on published achievements only, newest first, achievement embedded, not paginated (spec: Achievements)", async () => {
    s = build();
    const ada = s.user('ada');
    const [one, two] = [await s.achievement(), await s.achievement({ type: 'custom', title: 'Second', is_published: true })];
    await s.award(one.id, [{ user_id: ada.id, awarded_at: '2026-11-20' }]);
    s.clock.advance(60_000);
    await s.award(two.id, [{ user_id: ada.id, awarded_at: '2026-11-21' }]);
    await s.api('PATCH', `/achievements/${one.id}`, { is_published: false });
    const res = (await s.api('GET', `/users/${ada.id}/achievements`)).json();
    expect(Object.keys(res)).toEqual(['data']);
    expect(res.data.map((w: { achievement: { id: number } }) => w.achievement.id)).toEqual([two.id]);
    await s.api('PATCH', `/achievements/${one.id}`, { is_published: true });
    const again = (await s.api('GET', `/users/${ada.id}/achievements`)).json();
    expect(again.data.map((w: { achievement: { id: number } }) => w.achievement.id)).toEqual([two.id, one.id]);
  });

  it.each(['kiosk', 'bot', 'shadow'] as const)("answers 404 for a %s user's achievements (spec: Errors)", async (kind) => {
    s = build();
    const u = s.user('k', [], { kind });
    const res = await s.api('GET', `/users/${u.id}/achievements`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });
});
