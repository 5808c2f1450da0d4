import { describe, expect, it } from 'vitest';
import { ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { AchievementCreate } from '../../src/api/schemas/achievement';
import type { AwardRow } from '../../src/api/schemas/award';
import type { PlatformEvent } from '../../src/sandbox/events';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks';
import { failure, useHttpSandbox } from './http-harness';

const awarded = (events: PlatformEvent[]) => events.filter((e) => e.event === 'achievement.awarded');
const userIds = (awards: { user?: { id: number } | undefined }[]) => awards.map((w) => w.user?.id);

describe('awards (spec: Achievements, award rules; Award)', () => {
  const h = useHttpSandbox({ seed: 'empty' });

  const dept = (name: string, type: 'department' | 'profession' = 'department') => h.api.groups.create({ name, type });
  const user = (first: string, groups: number[] = []) => h.api.users.create({ first_name: first, last_name: 'Test', email: `${first}@x.example`, groups });
  /** Kiosk, bot, shadow, pending and deactivated users: the API cannot make them, so they are written in process. */
  const special = (first: string, fields: Partial<UserRecord>) => {
    const ctx = h.sandbox.ctx;
    return ctx.db.insert(KIND.users, newUser(ctx, { first_name: first, last_name: 'Test', email: `${first}@x.example`, memberships: [], ...fields }));
  };
  const achievement = (body: AchievementCreate = { type: 'custom', title: 'Helper', is_published: true }) => h.api.achievements.create(body);
  const award = (id: number, rows: AwardRow[]) => h.api.achievements.award(id, rows);
  /** A body the client refuses or rewrites before sending, over raw HTTP. */
  const rawAward = (id: number, awards: unknown[]) => h.raw('POST', `/achievements/${id}/awards`, { body: { awards } });

  it('creates awards in the order sent, answering 201 with the Award shape (spec: Achievements; Award)', async () => {
    const sales = await dept('Sales');
    const [ada, bob] = [await user('ada', [sales.id]), await user('bob')];
    const a = await achievement();
    const data = await award(a.id, [
      { user_id: bob.id, awarded_at: '2026-11-01' },
      { user_id: ada.id, awarded_at: '2026-11-02', department_id: sales.id },
    ]);
    expect(userIds(data)).toEqual([bob.id, ada.id]);
    expect(data[1]).toMatchObject({
      awarded_at: '2026-11-02T00:00:00+01:00',
      is_manually_added: true,
      department: { id: sales.id, name: 'Sales', type: 'department' },
      assigned_by: { id: 2, type: 'customer' },
      achievement: { id: a.id, title: 'Helper', awarded_users_count: 2 },
    });
    expect(data[0]!.department).toBeNull();
    // the status itself, which the client does not surface
    expect((await rawAward(a.id, [{ user_id: bob.id, awarded_at: '2026-11-03' }])).status).toBe(201);
  });

  it('answers 422 on a draft achievement (spec: Achievement publication state)', async () => {
    const ada = await user('ada');
    const a = await achievement({ type: 'custom', title: 'Draft' });
    await expect(award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }])).rejects.toBeInstanceOf(ApiValidationError);
    expect(awarded(h.events)).toHaveLength(0);
  });

  it('awards nobody when any row is invalid, naming the row as awards.<index>.<field> (spec: Achievements, award rule 2)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    const error = await failure(
      award(a.id, [
        { user_id: ada.id, awarded_at: '2026-11-22' },
        { user_id: 999, awarded_at: '2026-11-22' },
      ]),
    );
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'awards.1.user_id' });
    expect((await h.api.achievements.awards(a.id)).meta!.total).toBe(0);
    expect(awarded(h.events)).toHaveLength(0);
    // a row without awarded_at is refused by the client before sending, so raw HTTP
    const missingDate = await rawAward(a.id, [{ user_id: ada.id }]);
    expect(missingDate.status).toBe(422);
    expect(missingDate.json<{ message: string }>().message).toContain('awards.0.awarded_at');
  });

  it.each([
    ['a kiosk user', { kind: 'kiosk' }],
    ['a bot user', { kind: 'bot' }],
    ['a pending user', { status: 'pending' }],
    ['a deactivated user', { status: 'deactivated' }],
  ] as const)('answers 422 for %s (spec: Achievements, award request body)', async (_name, fields) => {
    const target = special('kim', fields);
    const a = await achievement();
    const error = await failure(award(a.id, [{ user_id: target.id, awarded_at: '2026-11-22' }]));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'awards.0.user_id' });
  });

  it("answers 422 when department_id is not one of the user's departments (spec: Errors)", async () => {
    const [sales, ops, prof] = [await dept('Sales'), await dept('Ops'), await dept('Engineer', 'profession')];
    const ada = await user('ada', [sales.id, prof.id]);
    const a = await achievement();
    expect(await failure(award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: ops.id }]))).toMatchObject({
      field: 'awards.0.department_id',
    });
    await expect(award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: prof.id }])).rejects.toBeInstanceOf(ApiValidationError);
  });

  it('requires department_id for employee of the month (spec: Achievements, award request body)', async () => {
    const sales = await dept('Sales');
    const ada = await user('ada', [sales.id]);
    const a = await achievement({ type: 'employee_of_the_month', is_published: true });
    const error = await failure(award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'awards.0.department_id' });
    await expect(award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22', department_id: sales.id }])).resolves.toHaveLength(1);
  });

  it('returns the existing award for an identical row, creating none and firing nothing (spec: Achievements, award rule 3)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    const [first] = await award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    await h.control.advance(60);
    const [again] = await award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    expect(again).toMatchObject({ id: first!.id, created_at: first!.created_at });
    // with a time on the day, as sent on the wire (the client would cut it off itself)
    const timed = await rawAward(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22T15:30:00+01:00' }]);
    expect(timed.status).toBe(201);
    expect(timed.json<{ data: { id: number }[] }>().data[0]).toMatchObject({ id: first!.id, created_at: first!.created_at });
    expect(awarded(h.events)).toHaveLength(1);
    expect((await h.api.achievements.get(a.id)).awarded_users_count).toBe(1);
  });

  it('answers one award for two identical rows in one request (spec: Achievements, award rule 3)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    const [x, y] = await award(a.id, [
      { user_id: ada.id, awarded_at: '2026-11-22' },
      { user_id: ada.id, awarded_at: '2026-11-22' },
    ]);
    expect(y!.id).toBe(x!.id);
    expect(awarded(h.events)).toHaveLength(1);
  });

  it('answers 422 for an empty awards array (spec: Achievements, award request body)', async () => {
    const a = await achievement();
    // refused by the client before sending, so raw HTTP
    const res = await rawAward(a.id, []);
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('awards');
  });

  it('makes a new award for the same user on another day (spec: Achievements, award rule 4)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    const [x, y] = await award(a.id, [
      { user_id: ada.id, awarded_at: '2026-11-22' },
      { user_id: ada.id, awarded_at: '2026-10-22' },
    ]);
    expect(x!.id).not.toBe(y!.id);
    expect(awarded(h.events)).toHaveLength(2);
  });

  it('drops a time sent with awarded_at and answers midnight in the customer zone (spec: Award.awarded_at)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    // the client drops the time itself, so the platform's own dropping is seen over raw HTTP
    const summer = await rawAward(a.id, [{ user_id: ada.id, awarded_at: '2026-07-04T18:45:00+02:00' }]);
    expect(summer.json<{ data: { awarded_at: string }[] }>().data[0]?.awarded_at).toBe('2026-07-04T00:00:00+02:00');
    const [viaClient] = await award(a.id, [{ user_id: ada.id, awarded_at: '2026-07-05T18:45:00+02:00' }]);
    expect(viaClient!.awarded_at).toBe('2026-07-05T00:00:00+02:00');
  });

  it('assigns API awards to the company user whichever user the token acts as (spec: Achievements, award rule 5)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    const system = await h.clientWith(['write:achievements'], { attribution: 'system' });
    const [made] = await system.achievements.award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    expect(made!.assigned_by).toMatchObject({ id: 2, type: 'customer', name: 'Sandbox GmbH' });
  });

  it('assigns awards to the system user on a platform without a company user (spec: Award.assigned_by)', async () => {
    await h.control.settings({ company_user: false });
    const ada = await user('ada');
    const a = await achievement();
    const [made] = await award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    expect(made!.assigned_by).toMatchObject({ id: 3, type: 'system' });
  });

  it('fires achievement.awarded per new award with achievement and user embedded, filterable by achievement (spec: Events)', async () => {
    const ada = await user('ada');
    const a = await achievement();
    await award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    const [event] = awarded(h.events);
    expect(event?.entityIds).toEqual({ achievement: a.id });
    expect(event?.payload).toMatchObject({
      is_manually_added: true,
      user: { id: ada.id, name: 'ada Test' },
      achievement: { id: a.id, awarded_users_count: 1 },
    });
    expect(PAYLOAD_SCHEMAS['achievement.awarded'].safeParse(event?.payload).success).toBe(true);
  });

  it('lists awards newest first with user embedded, meta without links, since on created_at (spec: Achievements; Pagination)', async () => {
    const [ada, bob] = [await user('ada'), await user('bob')];
    const a = await achievement();
    await award(a.id, [{ user_id: ada.id, awarded_at: '2026-11-22' }]);
    await h.control.advance(60);
    await award(a.id, [{ user_id: bob.id, awarded_at: '2020-01-01' }]);
    const list = await h.api.achievements.awards(a.id);
    expect(userIds(list.data)).toEqual([bob.id, ada.id]);
    expect(list.meta).toEqual({ current_page: 1, per_page: 25, total: 2 });
    // that the envelope has no links at all is seen on the wire
    const wire = (await h.raw('GET', `/achievements/${a.id}/awards`)).json<{ links?: unknown; meta: unknown }>();
    expect(wire.links).toBeUndefined();
    expect(wire.meta).toEqual({ current_page: 1, per_page: 25, total: 2 });
    expect(userIds((await h.api.achievements.awards(a.id, { since: '2026-11-22T09:00:30+01:00' })).data)).toEqual([bob.id]);
    expect(userIds((await h.api.achievements.awards(a.id, { per_page: 1, page: 2 })).data)).toEqual([ada.id]);
  });

  it('leaves awards of deleted users out of the award list (spec: Achievements)', async () => {
    const [ada, bob] = [await user('ada'), await user('bob')];
    const a = await achievement();
    await award(a.id, [
      { user_id: ada.id, awarded_at: '2026-11-22' },
      { user_id: bob.id, awarded_at: '2026-11-22' },
    ]);
    await h.api.users.delete(bob.id);
    expect(userIds((await h.api.achievements.awards(a.id)).data)).toEqual([ada.id]);
  });

  it("lists a user's awards on published achievements only, newest first, achievement embedded, not paginated (spec: Achievements)", async () => {
    const ada = await user('ada');
    const [one, two] = [await achievement(), await achievement({ type: 'custom', title: 'Second', is_published: true })];
    await award(one.id, [{ user_id: ada.id, awarded_at: '2026-11-20' }]);
    await h.control.advance(60);
    await award(two.id, [{ user_id: ada.id, awarded_at: '2026-11-21' }]);
    await h.api.achievements.patch(one.id, { is_published: false });
    const achievementIds = async () => (await h.api.achievements.userAchievements(ada.id)).map((w) => w.achievement?.id);
    expect(await achievementIds()).toEqual([two.id]);
    // not paginated: the wire envelope holds data only
    expect(Object.keys((await h.raw('GET', `/users/${ada.id}/achievements`)).json())).toEqual(['data']);
    await h.api.achievements.patch(one.id, { is_published: true });
    expect(await achievementIds()).toEqual([two.id, one.id]);
  });

  it.each(['kiosk', 'bot', 'shadow'] as const)("answers 404 for a %s user's achievements (spec: Errors)", async (kind) => {
    const u = special('k', { kind });
    await expect(h.api.achievements.userAchievements(u.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    const res = await h.raw('GET', `/users/${u.id}/achievements`);
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });
});
