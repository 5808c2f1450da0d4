import { Redis } from 'ioredis';

/** The Redis of the ingest bench: `INTRABOT_REDIS_URL`, else the local default. */
export function benchRedisUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.INTRABOT_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
}

/** The host of a Redis URL, for messages: the URL may carry a password. */
export function redisHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unparseable Redis URL)';
  }
}

/** A connection to `url`, or why there is none (said in the bench's output, which then skips what needs Redis). */
export async function connectRedis(url: string): Promise<{ redis: Redis } | { reason: string }> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  // the socket's own error (ECONNREFUSED...) says more than the "Connection is closed" connect() rejects with
  let socketError: unknown;
  redis.on('error', (error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return { redis };
  } catch (error) {
    redis.disconnect();
    const cause = socketError ?? error;
    const why = cause instanceof Error ? cause.message.replaceAll(url, redisHost(url)) : String(cause);
    return { reason: `Redis at ${redisHost(url)} is not reachable (${why})` };
  }
}

/**
 * CPU time the Redis server has used since it started, in µs (user + system, from `INFO cpu`). A
 * phase's difference is the Redis work of that phase, and of any other client of the same Redis.
 */
export async function redisCpuUs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

/** Deletes every key matching `pattern` (a `SCAN MATCH` glob): what a run left on a shared Redis. */
export async function deleteRedisKeys(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

/**
 * Redis's persistence settings in a few words (what "durable" costs whatever writes there), or
 * undefined where `CONFIG` is not allowed.
 */
export async function redisPersistence(redis: Redis): Promise<string | undefined> {
  try {
    const get = async (name: string): Promise<string> => ((await redis.config('GET', name)) as string[])[1] ?? '?';
    const [aof, fsync, save] = [await get('appendonly'), await get('appendfsync'), await get('save')];
    const snapshots = save.trim() ? `RDB snapshots "${save}"` : 'no RDB snapshots';
    return aof === 'yes' ? `append-only file, fsync ${fsync}; ${snapshots}` : `no append-only file; ${snapshots}`;
  } catch {
    return undefined;
  }
}
