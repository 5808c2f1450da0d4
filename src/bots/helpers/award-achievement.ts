import { z } from 'zod';
import type { Caller } from '../../api/caller';
import { ApiNotFoundError } from '../../api/errors';
import { AchievementSchema, type Achievement } from '../../api/schemas/achievement';
import { endpoints } from '../../api/schemas/endpoints';
import type { AwardRow } from '../../api/schemas/award';
import type { DirectoryGroup } from './directory-copy';

// `${env:X:-}` in a manifest gives an empty string for "not set"
const blankToUndefined = (value: unknown): unknown => (value === '' || value === null ? undefined : value);

/**
 * Which achievement a bot awards: by id or by title (a published `custom` one). Both empty: none.
 *
 * @example AwardConfigSchema.parse({ achievement_title: 'Loyal colleague' })
 */
export const AwardConfigSchema = z
  .object({
    achievement_id: z.preprocess(blankToUndefined, z.coerce.number().int().positive({ error: 'achievement_id must be an achievement id' }).optional()),
    achievement_title: z.preprocess(blankToUndefined, z.string().min(1).optional()),
  })
  .default({});
export type AwardConfig = z.infer<typeof AwardConfigSchema>;

export type AchievementChoice = { ok: true; achievement: Achievement } | { ok: false; reason: string };

/**
 * Finds the achievement the config names and checks that a bot may award it: it must be a
 * published `custom` one. `employment` badges are refused: the platform awards them itself on its
 * daily check (spec: Achievements, trigger configuration), so a bot awarding them would double up.
 * Awards are allowed only on published achievements (spec: Award rules, 1).
 */
export async function chooseAchievement(api: Caller, config: AwardConfig, signal?: AbortSignal): Promise<AchievementChoice | undefined> {
  if (config.achievement_id === undefined && config.achievement_title === undefined) return undefined;
  const found =
    config.achievement_id !== undefined ? await byId(api, config.achievement_id, signal) : await byTitle(api, config.achievement_title ?? '', signal);
  if (!found) return { ok: false, reason: `no achievement ${describe(config)} exists` };
  return checkAwardable(found);
}

/** Whether a bot may award `achievement`: published and `custom`. Pure. */
export function checkAwardable(achievement: Achievement): AchievementChoice {
  const name = `achievement ${achievement.id} "${achievement.title}"`;
  if (achievement.type === 'employment') {
    return { ok: false, reason: `${name} is an employment achievement: the platform awards those itself on its daily check; configure a custom one` };
  }
  if (achievement.type !== 'custom') return { ok: false, reason: `${name} is of type ${achievement.type}; only custom achievements are awarded by bots` };
  if (!achievement.is_published) return { ok: false, reason: `${name} is a draft; awards are allowed only on published achievements` };
  return { ok: true, achievement };
}

/**
 * One award row per user for `date`, with `department_id` when the user is in exactly one
 * department (spec: Award request body: it must be one of the user's departments). Pure.
 */
export function awardRows(users: readonly { id: number; group_ids: readonly number[] }[], date: string, groups: Record<string, DirectoryGroup>): AwardRow[] {
  return users.map((user) => {
    const departments = user.group_ids.filter((id) => groups[String(id)]?.type === 'department');
    return { user_id: user.id, awarded_at: date, ...(departments.length === 1 ? { department_id: departments[0] } : {}) };
  });
}

async function byId(api: Caller, id: number, signal?: AbortSignal): Promise<Achievement | undefined> {
  try {
    return AchievementSchema.parse(await api.call(endpoints['achievements.get'], { params: { id }, signal }));
  } catch (error) {
    if (error instanceof ApiNotFoundError) return undefined;
    throw error;
  }
}

async function byTitle(api: Caller, title: string, signal?: AbortSignal): Promise<Achievement | undefined> {
  const wanted = title.trim().toLowerCase();
  let fallback: Achievement | undefined;
  // newest first (spec: Achievements); a published match wins over a draft of the same title
  for await (const item of api.paginate(endpoints['achievements.list'], { query: { per_page: 50 }, signal })) {
    const achievement = AchievementSchema.parse(item);
    if (achievement.title.trim().toLowerCase() !== wanted) continue;
    if (achievement.is_published && achievement.type === 'custom') return achievement;
    fallback ??= achievement;
  }
  return fallback;
}

function describe(config: AwardConfig): string {
  return config.achievement_id !== undefined ? `with id ${config.achievement_id}` : `titled "${config.achievement_title}"`;
}
