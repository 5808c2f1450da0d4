import type { z } from 'zod';
import type { AwardCreateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';
import { ACHIEVEMENT_KIND, type AchievementRecord, type AwardRecord } from './records';
import { serializeAward } from './serialize';

type AwardRow = z.output<typeof AwardCreateSchema>['awards'][number];

/** An employee who can hold achievements: a registered, not deleted, regular user (no kiosk, bot, shadow, company or system user). */
export function isAwardableEmployee(user: UserRecord | undefined): user is UserRecord & { id: number } {
  return user !== undefined && user.kind === 'default' && user.status === 'registered' && user.deleted_at === null;
}

/**
 * spec: Award.assigned_by — awards given through the API are assigned by the company's own user
 * (`type: customer`), whichever user the token acts as; on a platform without a company user, by
 * the system user (`type: system`).
 */
function assigner(ctx: SandboxContext): number | null {
  const kind = ctx.settings.company_user ? 'customer' : 'system';
  const user =
    ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === kind) ??
    ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'system');
  return user?.id ?? null;
}

function holdsOn(ctx: SandboxContext, achievementId: number, userId: number, day: string): AwardRecord | undefined {
  return ctx.db.find<AwardRecord>(ACHIEVEMENT_KIND.awards, (w) => w.achievement_id === achievementId && w.user_id === userId && w.awarded_on === day);
}

/** spec: Achievements, award request body — checks one row, naming `awards.<index>.<field>` on failure. */
function checkRow(ctx: SandboxContext, a: AchievementRecord, row: AwardRow, index: number): void {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, row.user_id);
  if (!isAwardableEmployee(user)) {
    throw validationError(`awards.${index}.user_id`, `user ${row.user_id} is not a registered employee (kiosk, bot and unregistered users cannot be awarded)`);
  }
  if (row.department_id === undefined) {
    if (a.type === 'employee_of_the_month') throw validationError(`awards.${index}.department_id`, 'is required for employee_of_the_month');
    return;
  }
  const departments = user.memberships
    .map((m) => ctx.db.get<GroupRecord>(KIND.groups, m.group_id))
    .filter((g): g is GroupRecord => g?.type === 'department')
    .map((g) => g.id);
  if (!departments.includes(row.department_id)) {
    throw validationError(`awards.${index}.department_id`, `group ${row.department_id} is not one of the user's departments`);
  }
}

export interface AwardOutcome {
  /** One award per row, in the order sent: new ones and existing identical ones. */
  awards: AwardRecord[];
  /** Only the awards this request created (they fire `achievement.awarded`). */
  created: AwardRecord[];
}

/**
 * spec: Achievements, award rules — published only; all or nothing; an identical row (same user,
 * same day) answers the existing award; another day is a new award.
 */
export function awardManually(ctx: SandboxContext, a: AchievementRecord, rows: AwardRow[]): AwardOutcome {
  if (!a.is_published) throw validationError('achievement', 'awards are allowed only on published achievements');
  rows.forEach((row, index) => checkRow(ctx, a, row, index));
  const assignedBy = assigner(ctx);
  const outcome = ctx.db.transaction((): AwardOutcome => {
    const result: AwardOutcome = { awards: [], created: [] };
    for (const row of rows) {
      const existing = holdsOn(ctx, a.id, row.user_id, row.awarded_at);
      if (existing) {
        result.awards.push(existing);
        continue;
      }
      const award = insertAward(ctx, {
        achievement_id: a.id,
        user_id: row.user_id,
        awarded_on: row.awarded_at,
        department_id: row.department_id ?? null,
        is_manually_added: true,
        assigned_by_id: assignedBy,
      });
      result.awards.push(award);
      result.created.push(award);
    }
    return result;
  });
  for (const award of outcome.created) announceAward(ctx, award);
  return outcome;
}

function insertAward(ctx: SandboxContext, fields: Omit<AwardRecord, 'id' | 'created_at' | 'updated_at'>): AwardRecord {
  const now = ctx.now();
  return ctx.db.insert(ACHIEVEMENT_KIND.awards, { ...fields, created_at: now, updated_at: now });
}

/** spec: Events — `achievement.awarded` with the Award, `achievement` and `user` embedded; filterable by achievement. */
export function announceAward(ctx: SandboxContext, award: AwardRecord): void {
  ctx.events.emit({
    event: 'achievement.awarded',
    payload: serializeAward(ctx, award, { user: true, achievement: true }),
    entityIds: { achievement: award.achievement_id },
  });
}

/**
 * An award earned through a trigger (spec: Award.is_manually_added false, assigned_by null), on
 * today's date, unless the user already holds the achievement. `announce: false` is for the seed.
 */
export function awardAutomatically(ctx: SandboxContext, a: AchievementRecord, userId: number, announce = true): AwardRecord | undefined {
  if (ctx.db.find<AwardRecord>(ACHIEVEMENT_KIND.awards, (w) => w.achievement_id === a.id && w.user_id === userId)) return undefined;
  return insertAutomaticAward(ctx, a, userId, announce);
}

/** The automatic award itself, for callers that already know the user does not hold the achievement. */
export function insertAutomaticAward(ctx: SandboxContext, a: AchievementRecord, userId: number, announce: boolean): AwardRecord {
  const award = insertAward(ctx, {
    achievement_id: a.id,
    user_id: userId,
    awarded_on: ctx.today(),
    department_id: null,
    is_manually_added: false,
    assigned_by_id: null,
  });
  if (announce) announceAward(ctx, award);
  return award;
}
