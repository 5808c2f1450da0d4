import { AdoptionQuerySchema, EngagementQuerySchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { validate } from '../../http/validate';
import { adoption, contentActivity, usersSummary } from './stats-compute';
import { engagement } from './stats-engagement';

const HOUR_MS = 3_600_000;
const CACHE_KEY = 'stats.cache';
/** A long `scope` is capped so a typo cannot make the sandbox compute years of days. */
const MAX_SCOPE = 366;

type CacheEntry = { at: number; data: unknown };

/**
 * spec: Statistics — every response is cached server side: 1 hour for users, adoption and content,
 * 24 hours for engagement, on the sandbox clock. A second call within the period answers the numbers
 * of the first even when the data has changed. The cache lives in the state's meta, so a reset clears it.
 */
function cached(ctx: SandboxContext, key: string, ttlMs: number, compute: () => unknown): { data: unknown } {
  const cache = { ...(ctx.db.getMeta<Record<string, CacheEntry>>(CACHE_KEY) ?? {}) };
  const hit = cache[key];
  if (hit && ctx.now() - hit.at < ttlMs && ctx.now() >= hit.at) return { data: hit.data };
  const data = compute();
  cache[key] = { at: ctx.now(), data };
  ctx.db.setMeta(CACHE_KEY, cache);
  return { data };
}

/** spec: Statistics (read:stats). */
export function registerStatsRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/stats/users', 'read:stats', () => cached(ctx, 'users', HOUR_MS, () => usersSummary(ctx)));
  router.route('GET', '/stats/engagement', 'read:stats', (request) => {
    const query = validate(EngagementQuerySchema, request.query);
    const granularity = query.granularity ?? 'week';
    const scope = Math.min(query.scope ?? 12, MAX_SCOPE);
    const key = `engagement:${granularity}:${scope}:${query.group_ids?.join(',') ?? ''}`;
    return cached(ctx, key, 24 * HOUR_MS, () => engagement(ctx, granularity, scope, query.group_ids));
  });
  router.route('GET', '/stats/adoption', 'read:stats', (request) => {
    const query = validate(AdoptionQuerySchema, request.query);
    return cached(ctx, `adoption:${query.group_ids?.join(',') ?? ''}`, HOUR_MS, () => adoption(ctx, query.group_ids));
  });
  router.route('GET', '/stats/content', 'read:stats', () => cached(ctx, 'content', HOUR_MS, () => contentActivity(ctx)));
}
