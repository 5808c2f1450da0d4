import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { REDIS_SCHEMA_VERSION, RedisKeys } from '../../src/store/redis';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { CONTRACT_KEY, storeContract } from './contract';

const url = redisTestUrl();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

storeContract(
  'redis',
  async () => {
    const prefix = uniqueRedisPrefix('store');
    const clock = new AdjustableClock({ start: START, frozen: true });
    const raw = new Redis(url!, { lazyConnect: true });
    await raw.connect();
    const keys = new RedisKeys(prefix);
    return {
      clock,
      open: ({ secretKey } = {}) => openStore({ kind: 'redis', url: url!, prefix }, { clock, secretKey }),
      rawSecrets: async () => JSON.stringify(await raw.hgetall(keys.secrets)),
      forceSchemaVersion: async (version) => void (await raw.set(keys.schemaVersion, String(version))),
      corruptPayload: async (queue, id, text) => void (await raw.hset(`${keys.queue(queue)}e:${id}`, 'payload', text)),
      cleanup: async () => {
        raw.disconnect();
        await deleteRedisPrefix(url!, prefix);
      },
    };
  },
  { skip: !url },
);

describe.skipIf(!url)('redis store', () => {
  const prefix = uniqueRedisPrefix('store-misc');
  const clock = new AdjustableClock({ start: START, frozen: true });
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ kind: 'redis', url: url!, prefix }, { clock, secretKey: CONTRACT_KEY });
  });

  afterAll(async () => {
    await store?.close();
    await deleteRedisPrefix(url!, prefix);
  });

  it('keeps every key under its prefix', async () => {
    await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'd', dedupeKey: 'e:1', envelope: {} });
    await store.outbox.enqueue({ target: 'x', payload: 1 });
    await store.claims.claim('c', 1_000);
    await store.rate.take('r', { limit: 1, windowMs: 1_000 });
    await store.kv('n').set('k', 1, { ttlMs: 1_000 });
    await store.secrets.put('s', 'v');
    const redis = new Redis(url!);
    try {
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys.length).toBeGreaterThan(8);
      // a key collected by TTL: the dedupe and kv keys carry a garbage-collection PEXPIRE
      const dedupe = keys.find((k) => k.includes(':dd:'));
      expect(await redis.pttl(dedupe!)).toBeGreaterThan(24 * 3_600_000);
    } finally {
      redis.disconnect();
    }
  });

  it('writes the key layout earlier releases wrote on one server, so queued work survives the upgrade with no migration', async () => {
    // Cluster's hash tags (keys.ts) are for Cluster alone: one server and Sentinel keep these names
    const layout = uniqueRedisPrefix('layout');
    const s = await openStore({ kind: 'redis', url: url!, prefix: layout }, { clock, secretKey: CONTRACT_KEY });
    const redis = new Redis(url!);
    try {
      const accepted = await s.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'd1', envelope: { id: 'd1' } });
      const queued = await s.outbox.enqueue({ target: 'wall:1', payload: { n: 1 } });
      await s.rate.observe('tok', { limit: 5, windowMs: 1_000, remaining: 0, platformLimit: 2 });
      await s.kv('bot:a').set('k', 1);
      const id = accepted.accepted ? accepted.id : '';
      const keys = (await redis.keys(`${layout}:*`)).map((k) => k.slice(layout.length + 1)).sort();
      expect(keys.filter((k) => k.startsWith('dd:'))).toHaveLength(1);
      expect(keys.filter((k) => !k.startsWith('dd:'))).toEqual(
        [
          'schema_version',
          'meta',
          'q:inbox:seq',
          `q:inbox:e:${id}`,
          `q:inbox:t:${id}`,
          'q:inbox:ready',
          'q:inbox:live',
          'q:outbox:seq',
          `q:outbox:e:${queued.id}`,
          'q:outbox:t:wall:1',
          'q:outbox:ready',
          'q:outbox:live',
          'rate:tok',
          'rate-limit:tok',
          'kv:bot%3Aa:k',
          'kvidx:bot%3Aa',
        ].sort(),
      );
      expect(REDIS_SCHEMA_VERSION).toBe(1);
    } finally {
      redis.disconnect();
      await s.close();
      await deleteRedisPrefix(url!, layout);
    }
  });

  it('accepts the deliveries received in one event-loop turn with one script call, not one each', async () => {
    const redisStore = store as Store & { redis: Redis };
    const calls = vi.spyOn(redisStore.redis, 'evalsha');
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `turn-${i}`, envelope: { id: `turn-${i}` } })),
      );
      expect(results.every((r) => r.accepted)).toBe(true);
      expect(calls).toHaveBeenCalledTimes(1);
    } finally {
      calls.mockRestore();
    }
  });

  it('stores the accepts still waiting for their turn when it is closed, before it says goodbye to Redis', async () => {
    const closing = uniqueRedisPrefix('store-close');
    try {
      const first = await openStore({ kind: 'redis', url: url!, prefix: closing }, { clock });
      const accepts = Array.from({ length: 5 }, (_, i) => first.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `bye-${i}`, envelope: { id: `bye-${i}` } }));
      await first.close();
      expect((await Promise.all(accepts)).every((r) => r.accepted)).toBe(true);
      const again = await openStore({ kind: 'redis', url: url!, prefix: closing }, { clock });
      expect(await again.inbox.list()).toHaveLength(5);
      await again.close();
    } finally {
      await deleteRedisPrefix(url!, closing);
    }
  });

  it('is at the newest schema version', async () => {
    expect(await store.schemaVersion()).toBe(REDIS_SCHEMA_VERSION);
  });

  it('migrates a store found at version 0 and keeps its data and secret salt', async () => {
    const old = uniqueRedisPrefix('store-old');
    const passphrase = 'a passphrase, derived with the store salt';
    try {
      const first = await openStore({ kind: 'redis', url: url!, prefix: old }, { clock, secretKey: passphrase });
      await first.secrets.put('token:t1', 'svc_123');
      await first.kv('bot:a').set('cursor', 'c1');
      await first.close();
      const raw = new Redis(url!);
      await raw.del(new RedisKeys(old).schemaVersion);
      raw.disconnect();
      const migrated = await openStore({ kind: 'redis', url: url!, prefix: old }, { clock, secretKey: passphrase });
      expect(await migrated.schemaVersion()).toBe(REDIS_SCHEMA_VERSION);
      expect(await migrated.secrets.get('token:t1')).toBe('svc_123');
      expect(await migrated.kv('bot:a').get('cursor')).toBe('c1');
      await migrated.close();
    } finally {
      await deleteRedisPrefix(url!, old);
    }
  });

  it('brings every replica that opens at the same time to the newest version', async () => {
    const fresh = uniqueRedisPrefix('store-race');
    try {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openStore({ kind: 'redis', url: url!, prefix: fresh }, { clock })));
      for (const s of stores) expect(await s.schemaVersion()).toBe(REDIS_SCHEMA_VERSION);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await deleteRedisPrefix(url!, fresh);
    }
  });

  it('names the host, not the password, when Redis does not answer', async () => {
    const error = await openStore({ kind: 'redis', url: 'redis://:hunter2@127.0.0.1:1', prefix }, { clock }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'store_unavailable' });
    expect(String((error as Error).message)).toContain('127.0.0.1:1');
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});
