import type { Clock } from '../../clock';
import { assembleStore } from '../assemble-store';
import { boundedPing } from '../bounded-ping';
import type { StoreBackend } from '../backend';
import { DEFAULT_DEDUPE_TTL_MS } from '../inbox';
import { newClaimOwner } from '../claim-owner';
import type { Store } from '../store';
import { InvalidInputError } from '../../errors';
import { RedisKeys } from './keys';
import { connectRedis, type RedisClient } from './redis-client';
import { DEFAULT_WAIT_TIMEOUT_MS, parseRedisUrl, type RedisConnection } from './redis-config';
import { ReplicaWait } from './replica-wait';
import { migrateRedis, redisSchemaVersion } from './migrations';
import { RedisClaims } from './redis-claims';
import { RedisInbox } from './redis-inbox';
import { RedisKvSpace } from './redis-kv';
import { RedisQueue } from './redis-queue';
import { RedisRate } from './redis-rate';
import { redisSecretStorage } from './redis-secrets';
import { redisTransfer } from './redis-transfer';

export interface RedisStoreOptions {
  /**
   * `INTRABOT_REDIS_URL` in any of the shapes `parseRedisUrl` reads (`redis://127.0.0.1:6379`,
   * `redis+sentinel://...`, `redis+cluster://...`); or, instead, `connection`.
   */
  url?: string;
  /** The servers as `redisConnectionOf` reads them from a store config (a URL or the `redis:` mapping). */
  connection?: RedisConnection;
  /** Every key starts with it; replicas of one deployment share it (default `intrabot`). */
  prefix?: string;
  clock: Clock;
  secretKey?: string | undefined;
  dedupeTtlMs?: number;
  /** Replicas that must confirm each accept and enqueue before it is answered (`WAIT`; default 0: none). */
  minReplicas?: number;
  /** How long they are waited for (default 1 s); fewer in time is `store_unavailable`. */
  waitTimeoutMs?: number;
}

export type RedisStore = Store & { readonly redis: RedisClient; readonly prefix: string };

/** Connects, runs migrations and returns the scaled-out store; a Redis that does not answer is `store_unavailable`. */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const connection = options.connection ?? connectionOfUrl(options.url ?? '');
  const redis = await connectRedis(connection);
  const keys = new RedisKeys(options.prefix ?? 'intrabot', { hashTags: connection.mode === 'cluster' });
  let waiting: RedisClient | undefined;
  try {
    await migrateRedis(redis, keys);
    const waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    // WAIT blocks the connection it is sent on: the waited-for writes get one of their own
    if ((options.minReplicas ?? 0) > 0) waiting = await connectRedis(connection, { commandTimeoutMs: waitTimeoutMs + 5_000 });
    const waits = new ReplicaWait(redis, waiting, options.minReplicas ?? 0, waitTimeoutMs);
    return assemble(redis, keys, connection, waits, options);
  } catch (error) {
    redis.disconnect();
    waiting?.disconnect();
    throw error;
  }
}

function connectionOfUrl(url: string): RedisConnection {
  if (url === '') throw new InvalidInputError('url', 'url: the Redis URL (or a connection) is required');
  const parsed = parseRedisUrl(url);
  // the URL is not repeated: it may carry a password
  if (!parsed.ok) throw new InvalidInputError('url', `url: ${parsed.problem}`);
  return parsed.connection;
}

function assemble(redis: RedisClient, keys: RedisKeys, connection: RedisConnection, waits: ReplicaWait, options: RedisStoreOptions): RedisStore {
  const { clock } = options;
  const inbox = new RedisInbox(redis, keys, clock, options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS, waits);
  let closed = false;
  const backend: StoreBackend = {
    kind: 'redis',
    inbox,
    outbox: new RedisQueue(redis, keys, 'outbox', clock, waits),
    claims: new RedisClaims(redis, keys, newClaimOwner(), clock),
    rate: new RedisRate(redis, keys, clock),
    secrets: redisSecretStorage(redis, keys),
    kv: (namespace) => new RedisKvSpace(redis, keys, namespace, clock),
    schemaVersion: () => redisSchemaVersion(redis, keys),
    ping: () => boundedPing('Redis', () => redis.ping()),
    ...redisTransfer(redis, keys, clock),
    close: async () => {
      if (closed) return;
      closed = true;
      // the accepts waiting for their turn are sent and answered first: QUIT is not auto-pipelined, and
      // would otherwise reach Redis before them
      await inbox.drain();
      await waits.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  return Object.assign(assembleStore(backend, { clock, secretKey: options.secretKey }), { redis, prefix: keys.prefix });
}
