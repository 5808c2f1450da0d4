import type { SandboxContext } from '../../context';
import { serializeUser } from '../../serialize/user';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';
import { zonedMidnight } from '../../time';
import { activeLocales } from './locales';
import { ACHIEVEMENT_KIND, type AchievementRecord, type AwardRecord } from './records';

/** spec: Achievement.trigger_type — `completion` or `tenure` for the automatic types, else null. */
function triggerType(a: AchievementRecord): 'completion' | 'tenure' | null {
  if (a.type === 'completion') return 'completion';
  return a.type === 'employment' ? 'tenure' : null;
}

export function awardedUsersCount(ctx: SandboxContext, achievementId: number): number {
  return ctx.db.filter<AwardRecord>(ACHIEVEMENT_KIND.awards, (w) => w.achievement_id === achievementId).length;
}

/** spec: Achievement — `title` and `description` in the default content language. */
function inDefaultLanguage<T>(ctx: SandboxContext, texts: Record<string, T>): T | undefined {
  const { default: locale } = activeLocales(ctx);
  return texts[locale] ?? Object.values(texts)[0];
}

export function serializeAchievement(ctx: SandboxContext, a: AchievementRecord): Record<string, unknown> {
  return {
    id: a.id,
    title: inDefaultLanguage(ctx, a.titles) ?? '',
    description: inDefaultLanguage(ctx, a.descriptions) ?? null,
    translations: { title: { ...a.titles }, description: { ...a.descriptions } },
    emoji: a.emoji,
    type: a.type,
    visibility: a.visibility,
    trigger_type: triggerType(a),
    trigger_config: a.trigger_config,
    awarded_users_count: awardedUsersCount(ctx, a.id),
    is_published: a.is_published,
    published_at: ctx.isoOrNull(a.published_at),
    created_at: ctx.iso(a.created_at),
    updated_at: ctx.iso(a.updated_at),
  };
}

/** spec: Award.achievement — abbreviated: no translations or trigger config. */
export function summarizeAchievement(ctx: SandboxContext, a: AchievementRecord): Record<string, unknown> {
  const { translations: _t, trigger_config: _c, ...summary } = serializeAchievement(ctx, a);
  return summary;
}

function embeddedUser(ctx: SandboxContext, id: number): Record<string, unknown> {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, id);
  return user ? serializeUser(ctx, user) : { id, name: 'Deleted user' };
}

export interface AwardEmbeds {
  user?: boolean;
  achievement?: boolean;
}

/** spec: Award — `awarded_at` is the awarded day's midnight in the customer server's zone, with its offset. */
export function serializeAward(ctx: SandboxContext, w: AwardRecord, embeds: AwardEmbeds): Record<string, unknown> {
  const department = w.department_id === null ? undefined : ctx.db.get<GroupRecord>(KIND.groups, w.department_id);
  const achievement = embeds.achievement ? ctx.db.get<AchievementRecord>(ACHIEVEMENT_KIND.achievements, w.achievement_id) : undefined;
  return {
    id: w.id,
    awarded_at: ctx.iso(zonedMidnight(w.awarded_on, ctx.settings.timezone)),
    is_manually_added: w.is_manually_added,
    department: department ? { id: department.id, name: department.name, type: department.type } : null,
    assigned_by: w.assigned_by_id === null ? null : embeddedUser(ctx, w.assigned_by_id),
    ...(embeds.user ? { user: embeddedUser(ctx, w.user_id) } : {}),
    ...(achievement ? { achievement: summarizeAchievement(ctx, achievement) } : {}),
    created_at: ctx.iso(w.created_at),
    updated_at: ctx.iso(w.updated_at),
  };
}
