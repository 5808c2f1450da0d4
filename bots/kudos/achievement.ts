import { type BotContext, ConfigError } from 'intrabot';

const CACHE_TTL_MS = 60 * 60_000;

/**
 * The id of the achievement `/kudos` awards: the configured id, or the published custom achievement
 * with that title (looked up once an hour). Only a published `custom` achievement qualifies: the
 * platform awards the automatic kinds itself (spec: Achievement, `type`).
 */
export async function kudosAchievementId(ctx: BotContext<unknown>, configured: string): Promise<number> {
  if (/^\d+$/.test(configured)) return Number(configured);
  const key = `achievement:${configured.toLowerCase()}`;
  const cached = await ctx.store.get<number>(key);
  if (cached !== undefined) return cached;
  for await (const achievement of ctx.api.achievements.all({ per_page: 50 })) {
    if (achievement.type !== 'custom' || !achievement.is_published) continue;
    if (achievement.title.toLowerCase() !== configured.toLowerCase()) continue;
    await ctx.store.set(key, Number(achievement.id), { ttlMs: CACHE_TTL_MS });
    return Number(achievement.id);
  }
  throw new ConfigError('config.achievement', `no published custom achievement titled "${configured}"`);
}
