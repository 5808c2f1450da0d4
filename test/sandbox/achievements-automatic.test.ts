import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import type { PlatformEvent } from '../../src/sandbox/events';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { addMonths, hasTenure } from '../../src/sandbox/routes/achievements/add-months';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };

function build() {
  // 2026-11-22 09:00 in Berlin
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  const events: PlatformEvent[] = [];
  ctx.events.on((e) => events.push(e));
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers: auth, ...(payload ? { payload } : {}) });
  const user = (first: string, fields: Partial<UserRecord> = {}) =>
    ctx.db.insert(KIND.users, newUser(ctx, { first_name: first, last_name: 'Test', email: `${first}@x.example`, ...fields }));
  const setClock = (now: string) => sandbox.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { now } });
  const complete = (userId: number, completable_type: string, completable_id: number) =>
    sandbox.app.inject({ method: 'POST', url: `/_sandbox/users/${userId}/complete`, payload: { completable_type, completable_id } });
  const holders = async (id: number) => (await api('GET', `/achievements/${id}/awards`)).json().data.map((w: { user: { id: number } }) => w.user.id).sort();
  return { ...sandbox, ctx, clock, events, api, user, setClock, complete, holders };
}

const awardedTo = (events: PlatformEvent[]) => events.filter((e) => e.event === 'achievement.awarded').map((e) => (e.payload.user as { id: number }).id).sort();

describe('addMonths (spec: Trigger configuration, employment)', () => {
  it.each([
    ['2025-11-22', 12, '2026-11-22'],
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2025-12-15', 1, '2026-01-15'],
    ['2020-03-10', 0, '2020-03-10'],
  ])('%s plus %i months is %s', (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it('counts tenure from the day the months are complete (spec: Trigger configuration, employment)', () => {
    expect(hasTenure('2025-11-22', 12, '2026-11-22')).toBe(true);
    expect(hasTenure('2025-11-23', 12, '2026-11-22')).toBe(false);
  });
});

describe('automatic awards (spec: Trigger configuration; Achievement publication state; Events)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  const tenure = { type: 'employment', title: 'One year', trigger_config: { months: 12 } };

  it('awards employees meeting the trigger when an employment achievement is published (spec: Achievement publication state)', async () => {
    s = build();
    const veteran = s.user('vera', { hired_at_synced: '2020-01-01' });
    s.user('newbie', { hired_at_synced: '2026-06-01' });
    s.user('kiosk', { kind: 'kiosk', hired_at_synced: '2020-01-01' });
    s.user('pending', { status: 'pending', hired_at_synced: '2020-01-01' });
    const draft = (await s.api('POST', '/achievements', tenure)).json().data;
    expect(await s.holders(draft.id)).toEqual([]);
    await s.api('PATCH', `/achievements/${draft.id}`, { is_published: true });
    expect(await s.holders(draft.id)).toEqual([veteran.id]);
    expect(awardedTo(s.events)).toEqual([veteran.id]);
    const [award] = (await s.api('GET', `/achievements/${draft.id}/awards`)).json().data;
    expect(award).toMatchObject({ is_manually_added: false, assigned_by: null, awarded_at: '2026-11-22T00:00:00+01:00' });
  });

  it('reads the effective hire date: a manual date wins over a synced one (spec: User.hired_at)', async () => {
    s = build();
    s.user('moved', { hired_at_synced: '2015-01-01', hired_at_manual: '2026-09-01' });
    const a = (await s.api('POST', '/achievements', { ...tenure, is_published: true })).json().data;
    expect(await s.holders(a.id)).toEqual([]);
  });

  it('runs the tenure check once per customer-zone day, at or after midnight (spec: Trigger configuration, employment)', async () => {
    s = build();
    const a = (await s.api('POST', '/achievements', { ...tenure, is_published: true })).json().data;
    const soon = s.user('sam', { hired_at_synced: '2025-11-23' });
    s.ctx.tick();
    await s.setClock('2026-11-22T23:59:00+01:00');
    expect(await s.holders(a.id)).toEqual([]);
    const late = s.user('lia', { hired_at_synced: '2020-01-01' });
    await s.setClock('2026-11-22T23:59:30+01:00');
    expect(await s.holders(a.id)).toEqual([]);
    await s.setClock('2026-11-23T00:00:00+01:00');
    expect(await s.holders(a.id)).toEqual([soon.id, late.id].sort());
    expect(awardedTo(s.events)).toEqual([soon.id, late.id].sort());
    const [award] = (await s.api('GET', `/achievements/${a.id}/awards`)).json().data;
    expect(award.awarded_at).toBe('2026-11-23T00:00:00+01:00');
    s.ctx.tick();
    expect(awardedTo(s.events)).toHaveLength(2);
  });

  it('does not award an employee who already holds the achievement on a later check (spec: Trigger configuration)', async () => {
    s = build();
    const vera = s.user('vera', { hired_at_synced: '2020-01-01' });
    const a = (await s.api('POST', '/achievements', { ...tenure, is_published: true })).json().data;
    await s.setClock('2026-11-25T09:00:00+01:00');
    expect(await s.holders(a.id)).toEqual([vera.id]);
    expect(awardedTo(s.events)).toEqual([vera.id]);
  });

  it('does not run the tenure check for draft employment achievements (spec: Achievement publication state)', async () => {
    s = build();
    s.user('vera', { hired_at_synced: '2020-01-01' });
    const a = (await s.api('POST', '/achievements', tenure)).json().data;
    await s.setClock('2026-11-25T09:00:00+01:00');
    expect(await s.holders(a.id)).toEqual([]);
  });

  it('awards a completion achievement when an employee completes linked content (spec: Trigger configuration, completion)', async () => {
    s = build();
    const ada = s.user('ada');
    const handbook = (await s.api('POST', '/handbooks', { title: 'Handbook' })).json().data;
    const other = (await s.api('POST', '/handbooks', { title: 'Other' })).json().data;
    const a = (await s.api('POST', '/achievements', { type: 'completion', title: 'Reader', trigger_config: { completable_type: 'handbook', completable_ids: [handbook.id] }, is_published: true })).json().data;
    expect((await s.complete(ada.id, 'handbook', other.id)).json().data.awards).toEqual([]);
    const res = await s.complete(ada.id, 'handbook', handbook.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.awards).toHaveLength(1);
    expect(awardedTo(s.events)).toEqual([ada.id]);
    expect(s.events.find((e) => e.event === 'achievement.awarded')?.entityIds).toEqual({ achievement: a.id });
    await s.complete(ada.id, 'handbook', handbook.id);
    expect(awardedTo(s.events)).toEqual([ada.id]);
  });

  it('awards those who already completed the content when a completion achievement is published (spec: Achievement publication state)', async () => {
    s = build();
    const [ada, bob] = [s.user('ada'), s.user('bob')];
    const course = (await s.api('POST', '/courses', { title: 'Course' })).json().data;
    await s.complete(ada.id, 'course', course.id);
    const a = (await s.api('POST', '/achievements', { type: 'completion', title: 'Learner', trigger_config: { completable_type: 'course', completable_ids: [course.id] } })).json().data;
    expect(await s.holders(a.id)).toEqual([]);
    await s.api('PATCH', `/achievements/${a.id}`, { is_published: true });
    expect(await s.holders(a.id)).toEqual([ada.id]);
    await s.complete(bob.id, 'course', course.id);
    expect(await s.holders(a.id)).toEqual([ada.id, bob.id]);
  });

  it('awards nothing automatically while the achievements feature is disabled (spec: Achievements)', async () => {
    s = build();
    const vera = s.user('vera', { hired_at_synced: '2020-01-01' });
    const handbook = (await s.api('POST', '/handbooks', { title: 'Handbook' })).json().data;
    await s.api('POST', '/achievements', { type: 'completion', title: 'Reader', trigger_config: { completable_type: 'handbook', completable_ids: [handbook.id] }, is_published: true });
    const a = (await s.api('POST', '/achievements', tenure)).json().data;
    s.ctx.db.update('achievements', a.id, { is_published: true });
    s.ctx.updateSettings({ achievements_enabled: false });
    expect((await s.complete(vera.id, 'handbook', handbook.id)).json().data.awards).toEqual([]);
    await s.setClock('2026-11-23T09:00:00+01:00');
    expect(awardedTo(s.events)).toEqual([]);
    s.ctx.updateSettings({ achievements_enabled: true });
    s.ctx.tick();
    expect(await s.holders(a.id)).toEqual([vera.id]);
  });

  it('validates the complete control route: unknown user 404, non-employee and unknown content 422 (DESIGN.md: control API)', async () => {
    s = build();
    const kiosk = s.user('kiosk', { kind: 'kiosk' });
    const ada = s.user('ada');
    expect((await s.complete(999, 'handbook', 1)).statusCode).toBe(404);
    expect((await s.complete(kiosk.id, 'handbook', 1)).statusCode).toBe(422);
    const unknown = await s.complete(ada.id, 'handbook', 999);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('completable_id');
    expect((await s.complete(ada.id, 'video', 1)).statusCode).toBe(422);
  });
});
