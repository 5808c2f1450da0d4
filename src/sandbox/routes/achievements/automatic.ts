import type { SandboxContext } from '../../context';
import { effectiveHiredAt } from '../../serialize/user';
import { KIND, type UserRecord } from '../../state/records';
import type { CompletableType } from '../content/learning-records';
import { hasTenure } from './add-months';
import { awardAutomatically, insertAutomaticAward, isAwardableEmployee } from './awards';
import { ACHIEVEMENT_KIND, type AchievementRecord, type AwardRecord, type CompletionRecord } from './records';

/** Meta key of the customer-zone day the tenure check last ran. */
export const TENURE_CHECKED_KEY = 'achievements.tenure_checked_on';

/** Who completed any of `ids` (one pass over the completions, not one per user). */
function completers(ctx: SandboxContext, type: CompletableType, ids: readonly number[]): Set<number> {
  const out = new Set<number>();
  for (const c of ctx.db.all<CompletionRecord>(ACHIEVEMENT_KIND.completions)) {
    if (c.completable_type === type && ids.includes(c.completable_id)) out.add(c.user_id);
  }
  return out;
}

/** Whether an employee meets an automatic achievement's trigger today, as a predicate built once per check. */
function triggerPredicate(ctx: SandboxContext, a: AchievementRecord): (user: UserRecord & { id: number }) => boolean {
  const config = a.trigger_config;
  if (!config) return () => false;
  if ('months' in config) {
    const today = ctx.today();
    const zone = ctx.settings.timezone;
    return (user) => hasTenure(effectiveHiredAt(user, zone), config.months, today);
  }
  // our reading of "completes the linked content": completing any one of the linked items
  const done = completers(ctx, config.completable_type, config.completable_ids);
  return (user) => done.has(user.id);
}

/**
 * spec: Achievement publication state — "Publishing an automatic achievement starts awarding
 * employees who meet the trigger": every registered employee who meets it and does not hold it yet.
 */
export function awardQualifiedEmployees(ctx: SandboxContext, a: AchievementRecord, announce = true): AwardRecord[] {
  if (!a.is_published || a.trigger_config === null) return [];
  const meets = triggerPredicate(ctx, a);
  // holders looked up once: the large seed checks 10,000 employees
  const holders = new Set(ctx.db.filter<AwardRecord>(ACHIEVEMENT_KIND.awards, (w) => w.achievement_id === a.id).map((w) => w.user_id));
  const out: AwardRecord[] = [];
  for (const user of ctx.db.all<UserRecord & { id: number }>(KIND.users)) {
    if (holders.has(user.id) || !isAwardableEmployee(user) || !meets(user)) continue;
    out.push(insertAutomaticAward(ctx, a, user.id, announce));
  }
  return out;
}

/**
 * spec: Trigger configuration, employment — "On the daily check": once per customer-zone day, at
 * the first tick at or after midnight, every published employment achievement awards the employees
 * employed at least `months` months who do not hold it yet.
 */
export function dailyTenureCheck(ctx: SandboxContext): AwardRecord[] {
  // a company without the feature earns nothing; the check runs on the first tick once it is enabled
  if (!ctx.settings.achievements_enabled) return [];
  const today = ctx.today();
  if (ctx.db.getMeta<string>(TENURE_CHECKED_KEY) === today) return [];
  ctx.db.setMeta(TENURE_CHECKED_KEY, today);
  const employment = ctx.db.filter<AchievementRecord>(ACHIEVEMENT_KIND.achievements, (a) => a.is_published && a.type === 'employment');
  return employment.flatMap((a) => awardQualifiedEmployees(ctx, a));
}

export interface CompletionOutcome {
  completion: CompletionRecord;
  awards: AwardRecord[];
}

/**
 * An employee completes a handbook, course or journey: the completion is recorded (once) and every
 * published completion achievement linking that content awards the employee (spec: Trigger
 * configuration, completion — "When an employee completes the linked content").
 */
export function recordCompletion(ctx: SandboxContext, user: UserRecord & { id: number }, type: CompletableType, id: number): CompletionOutcome {
  const existing = ctx.db.find<CompletionRecord>(
    ACHIEVEMENT_KIND.completions,
    (c) => c.user_id === user.id && c.completable_type === type && c.completable_id === id,
  );
  const now = ctx.now();
  const completion =
    existing ??
    ctx.db.insert(ACHIEVEMENT_KIND.completions, { user_id: user.id, completable_type: type, completable_id: id, completed_at: now, created_at: now });
  if (!ctx.settings.achievements_enabled) return { completion, awards: [] };
  const linked = ctx.db.filter<AchievementRecord>(ACHIEVEMENT_KIND.achievements, (a) => {
    const config = a.trigger_config;
    return (
      a.is_published &&
      a.type === 'completion' &&
      config !== null &&
      'completable_ids' in config &&
      config.completable_type === type &&
      config.completable_ids.includes(id)
    );
  });
  const awards = linked.map((a) => awardAutomatically(ctx, a, user.id)).filter((w): w is AwardRecord => w !== undefined);
  return { completion, awards };
}
