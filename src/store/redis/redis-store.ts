import { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import { assembleStore } from '../assemble-store';
import { boundedPing } from '../bounded-ping';
import type { StoreBackend } from '../backend';
import { DEFAULT_DEDUPE_TTL_MS } from '../inbox';
import { newClaimOwner } from '../claim-owner';
import type { Store } from '../store';
import { StoreUnavailableError } from '../store-errors';
import { RedisKeys } from './keys';
import { migrateRedis, redisSchemaVersion } from './migrations';
import { RedisClaims } from './redis-claims';
import { RedisInbox } from './redis-inbox';
import { RedisKvSpace } from './redis-kv';
import { RedisQueue } from './redis-queue';
import { RedisRate } from './redis-rate';
import { redisSecretStorage } from './redis-secrets';

export interface RedisStoreOptions {
  /** `INTRABOT_REDIS_URL`, e.g. `redis://127.0.0.1:6379`. */
  url: string;
  /** Every key starts with it; replicas of one deployment share it (default `intrabot`). */
  prefix?: string;
  clock: Clock;
  secretKey?: string | undefined;
  dedupeTtlMs?: number;
}

export type RedisStore = Store & { readonly redis: Redis; readonly prefix: string };

/** Connects, runs migrations and returns the scaled-out store; a Redis that does not answer is `store_unavailable`. */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const redis = await connect(options.url);
  const keys = new RedisKeys(options.prefix ?? 'intrabot');
  try {
    await migrateRedis(redis, keys);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return assemble(redis, keys, options);
}

async function connect(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    // during an outage a command fails at once rather than waiting in a queue for the reconnection (which
    // goes on in the background, every second at most), and one a hung server does not answer after 5 s:
    // a route answers 503 promptly instead of holding its caller (the platform gives up after 3 s)
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    commandTimeout: 5_000,
    enableAutoPipelining: true,
  });
  // errors surface on the commands that fail; without a listener ioredis prints every reconnect failure
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return redis;
  } catch (cause) {
    redis.disconnect();
    // the URL may carry a password: name only the host
    throw new StoreUnavailableError(`cannot reach Redis at ${safeHost(url)}`, { cause });
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unparseable INTRABOT_REDIS_URL)';
  }
}

function assemble(redis: Redis, keys: RedisKeys, options: RedisStoreOptions): RedisStore {
  const { clock } = options;
  const inbox = new RedisInbox(redis, keys, clock, options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS);
  let closed = false;
  const backend: StoreBackend = {
    kind: 'redis',
    inbox,
    outbox: new RedisQueue(redis, keys, 'outbox', clock),
    claims: new RedisClaims(redis, keys, newClaimOwner(), clock),
    rate: new RedisRate(redis, keys, clock),
    secrets: redisSecretStorage(redis, keys),
    kv: (namespace) => new RedisKvSpace(redis, keys, namespace, clock),
    schemaVersion: () => redisSchemaVersion(redis, keys),
    ping: () => boundedPing('Redis', () => redis.ping()),
    close: async () => {
      if (closed) return;
      closed = true;
      // the accepts waiting for their turn are sent and answered first: QUIT is not auto-pipelined, and
      // would otherwise reach Redis before them
      await inbox.drain();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  return Object.assign(assembleStore(backend, { clock, secretKey: options.secretKey }), { redis, prefix: keys.prefix });
}
