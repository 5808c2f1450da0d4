import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { directoryModule } from '../../src/sandbox/routes/directory';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { effectiveHiredAt, isListedUser } from '../../src/sandbox/serialize/user';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

function seeded(seed: 'demo' | 'empty' | 'large', start = Date.UTC(2026, 10, 22, 8), users?: number) {
  const ctx = new SandboxContext(new SandboxDb(), new AdjustableClock({ start, frozen: true }));
  const sandbox = buildSandboxApp(ctx, [directoryModule]);
  sandbox.reset({ seed, ...(users ? { users } : {}) });
  return { ctx, app: sandbox.app };
}

const users = (ctx: SandboxContext) => ctx.db.all<UserRecord & { id: number }>(KIND.users);
const hireDate = (ctx: SandboxContext, user: UserRecord) => effectiveHiredAt(user, ctx.settings.timezone);

describe('directory seed', () => {
  it('seeds about 40 registered users in four departments for demo', () => {
    const { ctx } = seeded('demo');
    const refs = directoryRefs(ctx);
    expect(refs).toBeDefined();
    expect(Object.keys(refs!.departments)).toEqual(['Engineering', 'Sales', 'People', 'Operations']);
    expect(Object.keys(refs!.professions)).toHaveLength(2);
    const listed = users(ctx).filter(isListedUser);
    expect(listed.length).toBeGreaterThanOrEqual(38);
    expect(listed.length).toBeLessThanOrEqual(45);
    expect(listed.map((u) => u.id).sort((a, b) => a - b)).toEqual([...refs!.registered_user_ids].sort((a, b) => a - b));
  });

  it('gives the same ids and data for the same seed and clock', () => {
    const a = seeded('demo').ctx;
    const b = seeded('demo').ctx;
    expect(JSON.stringify(users(a))).toBe(JSON.stringify(users(b)));
    expect(a.db.getMeta('seed.directory')).toEqual(b.db.getMeta('seed.directory'));
  });

  it("puts exactly the listed birthdays and hire anniversaries on the sandbox's today", () => {
    const { ctx } = seeded('demo', Date.UTC(2026, 6, 14, 10));
    const refs = directoryRefs(ctx)!;
    const md = ctx.today().slice(5);
    const born = users(ctx)
      .filter((u) => isListedUser(u) && u.date_of_birth?.slice(5) === md)
      .map((u) => u.id);
    // hired today (the admin, registered as the seed ran, counts from that day) is no anniversary yet
    const hired = users(ctx)
      .filter((u) => isListedUser(u) && hireDate(ctx, u).slice(5) === md && hireDate(ctx, u) !== ctx.today())
      .map((u) => u.id);
    expect(born).toEqual(refs.birthday_today_user_ids);
    expect(born).toHaveLength(2);
    const years = born.map((id) => ctx.db.get<UserRecord & { id: number }>(KIND.users, id)!.date_of_birth!.slice(0, 4));
    expect(new Set(years).size).toBe(2);
    expect(hired).toEqual(refs.anniversary_today_user_ids);
    expect(hired.map((id) => hireDate(ctx, ctx.db.get<UserRecord & { id: number }>(KIND.users, id)!))).toEqual(['2025-07-14', '2021-07-14']);
  });

  it('keeps two birthdays and two anniversaries on a Feb 29 today', () => {
    const { ctx } = seeded('demo', Date.UTC(2028, 1, 29, 10));
    const refs = directoryRefs(ctx)!;
    const hires = refs.anniversary_today_user_ids.map((id) => hireDate(ctx, ctx.db.get<UserRecord & { id: number }>(KIND.users, id)!));
    expect(hires).toEqual(['2024-02-29', '2020-02-29']);
    expect(refs.birthday_today_user_ids.length).toBeGreaterThanOrEqual(2);
  });

  it('has a user born on Feb 29', () => {
    const { ctx } = seeded('demo');
    const refs = directoryRefs(ctx)!;
    expect(ctx.db.get<UserRecord & { id: number }>(KIND.users, refs.leap_day_birthday_user_id)?.date_of_birth).toBe('1992-02-29');
  });

  it('marks the special users by kind and status (spec: User; Users)', () => {
    const { ctx } = seeded('demo');
    const refs = directoryRefs(ctx)!;
    const get = (id: number) => ctx.db.get<UserRecord & { id: number }>(KIND.users, id)!;
    expect(get(refs.kiosk_user_id).kind).toBe('kiosk');
    expect(get(refs.shadow_user_id).kind).toBe('shadow');
    expect(get(refs.pending_user_id).status).toBe('pending');
    expect(get(refs.deactivated_user_id).status).toBe('deactivated');
    expect(get(refs.bot_user_id).kind).toBe('bot');
    expect(get(refs.synced_user_id).external_id).not.toBeNull();
    expect(get(refs.synced_user_id).hired_at_synced).not.toBeNull();
    const manual = get(refs.manual_hire_user_id);
    expect(manual.hired_at_synced).toBe(refs.manual_hire.synced);
    expect(hireDate(ctx, manual)).toBe(refs.manual_hire.manual);
    for (const [dept, id] of Object.entries(refs.managers)) {
      const user = get(id);
      expect(user.is_manager).toBe(true);
      expect(user.memberships).toContainEqual({ group_id: refs.departments[dept], is_manager: true });
    }
  });

  it('seeds a wall per department and a company wall', () => {
    const { ctx } = seeded('demo');
    const refs = directoryRefs(ctx)!;
    expect(ctx.db.get(KIND.walls, refs.company_wall_id)).toMatchObject({ name: 'Company', group_ids: [] });
    for (const [dept, wallId] of Object.entries(refs.department_walls)) {
      expect(ctx.db.get(KIND.walls, wallId)).toMatchObject({ name: dept, group_ids: [refs.departments[dept]] });
    }
  });

  it('seeds nothing beyond the base (and the locales) for empty', () => {
    const { ctx } = seeded('empty');
    expect(directoryRefs(ctx)).toBeUndefined();
    expect(users(ctx)).toHaveLength(3);
    expect(ctx.db.all(KIND.groups)).toHaveLength(0);
    expect(ctx.db.getMeta('locales')).toEqual({ locales: { en: 'English', de: 'Deutsch' }, default: 'en' });
  });

  it('seeds 10,000 deterministic users for large in under two seconds', () => {
    const started = performance.now();
    const { ctx } = seeded('large');
    const elapsed = performance.now() - started;
    const refs = directoryRefs(ctx)!;
    expect(refs.generated).toMatchObject({ count: 10_000 });
    expect(refs.generated!.last_id - refs.generated!.first_id + 1).toBe(10_000);
    expect(elapsed).toBeLessThan(2_000);
    const generated = users(ctx).filter((u) => u.id >= refs.generated!.first_id);
    const created = generated.map((u) => u.created_at);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(new Set(generated.map((u) => u.email)).size).toBe(10_000);
    const again = seeded('large').ctx;
    expect(JSON.stringify(users(again).slice(-5))).toBe(JSON.stringify(users(ctx).slice(-5)));
  });
});
