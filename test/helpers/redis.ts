import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** Printed when the Redis half of the store tests is skipped outside CI. */
export const REDIS_SKIP_REASON = 'skipping the Redis store tests: set INTRABOT_REDIS_URL=redis://127.0.0.1:6379 to run the scaled-out store tests';

/**
 * The Redis URL for tests, from `INTRABOT_REDIS_URL`. Unset outside CI: undefined (the caller skips, and
 * the reason is printed). Unset in CI (`CI=true`): throws, so the suite fails instead of silently
 * skipping the scaled-out half. A URL whose Redis does not answer fails the tests that open a store.
 */
export function redisTestUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env.INTRABOT_REDIS_URL?.trim();
  if (url) return url;
  if (env.CI === 'true') {
    throw new Error('CI=true but INTRABOT_REDIS_URL is unset: the Redis store tests must run in CI (start Redis and set INTRABOT_REDIS_URL)');
  }
  console.warn(REDIS_SKIP_REASON);
  return undefined;
}

/** A prefix no other test (or engineer) uses. */
export function uniqueRedisPrefix(label = 'test'): string {
  return `intrabot-test:${label}:${randomUUID()}`;
}

/** Deletes every key under `prefix` (tests clean up after themselves on a shared Redis). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
