import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { RedisKeys } from '../../src/store/redis';
import { uniqueRedisPrefix } from '../helpers/redis';
import { privateRedisAvailable, startRedisCluster, type PrivateRedisCluster } from '../helpers/private-redis';
import { CONTRACT_KEY, storeContract } from './contract';

// three masters of a cluster of this file's own (no replicas): every store operation must keep the keys
// of one script, transaction or pipeline in one hash slot, or the cluster refuses it
const available = privateRedisAvailable();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);
let cluster: PrivateRedisCluster | undefined;
let raw: Cluster;

beforeAll(async () => {
  if (!available) return;
  cluster = await startRedisCluster(3);
  raw = cluster.client();
}, 60_000);

afterAll(async () => {
  await cluster?.close();
});

/** Every key under `prefix` on every master (SCAN runs per node: a cluster has no one keyspace to scan). */
async function keysUnder(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of raw.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found.sort();
}

storeContract(
  'redis cluster',
  async () => {
    const prefix = uniqueRedisPrefix('cluster');
    const clock = new AdjustableClock({ start: START, frozen: true });
    const keys = new RedisKeys(prefix, { hashTags: true });
    return {
      clock,
      open: ({ secretKey } = {}) => openStore({ kind: 'redis', url: cluster!.url, prefix }, { clock, secretKey }),
      rawSecrets: async () => JSON.stringify(await raw.hgetall(keys.secrets)),
      forceSchemaVersion: async (version) => void (await raw.set(keys.schemaVersion, String(version))),
      corruptPayload: async (queue, id, text) => void (await raw.hset(`${keys.queue(queue)}e:${id}`, 'payload', text)),
      // the prefix is the test's own; the cluster goes at the end of the file
      cleanup: async () => undefined,
    };
  },
  { skip: !available },
);

describe.skipIf(!available)('redis cluster store', () => {
  const prefix = uniqueRedisPrefix('cluster-keys');
  const clock = new AdjustableClock({ start: START, frozen: true });
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ kind: 'redis', url: cluster!.url, prefix }, { clock, secretKey: CONTRACT_KEY });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps every key under its prefix, and the keys one script, transaction or pipeline uses together in one slot', async () => {
    await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'd', dedupeKey: 'e:1', envelope: {} });
    await store.outbox.enqueue({ target: 'x', payload: 1 });
    await store.claims.claim('c', 1_000);
    await store.rate.take('r}odd{key', { limit: 1, windowMs: 1_000 });
    await store.rate.observe('r}odd{key', { limit: 5, windowMs: 1_000, remaining: 0, platformLimit: 2 });
    await store.kv('bot:n').set('k', 1, { ttlMs: 1_000 });
    await store.secrets.put('s', 'v');
    const keys = await keysUnder(prefix);
    expect(keys.every((k) => k.startsWith(`${prefix}:`))).toBe(true);
    const slot = async (key: string) => Number(await raw.call('CLUSTER', 'KEYSLOT', key));
    const slotsOf = async (part: string) => new Set(await Promise.all(keys.filter((k) => k.startsWith(`${prefix}:{${prefix}:${part}`)).map(slot)));
    // the inbox's entries, lines, indexes and dedupe keys: one slot
    expect(keys.filter((k) => k.includes(':dd:')).every((k) => k.startsWith(`${prefix}:{${prefix}:q:inbox}:dd:`))).toBe(true);
    expect((await slotsOf('q:inbox}')).size).toBe(1);
    expect((await slotsOf('q:outbox}')).size).toBe(1);
    expect((await slotsOf('rate:r}')).size).toBe(1);
    expect(keys.filter((k) => k.startsWith(`${prefix}:{${prefix}:rate:`))).toHaveLength(2);
    expect((await slotsOf('kv:bot%3An}')).size).toBe(1);
    expect(keys.filter((k) => k.startsWith(`${prefix}:{${prefix}:kv:`))).toHaveLength(2);
  });

  it('answers a reserve on the inbox after its accepts, wherever its slot lives', async () => {
    const accepted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `many-${i}`, envelope: { id: `many-${i}` } })),
    );
    expect(accepted.every((r) => r.accepted)).toBe(true);
    const leases = await store.inbox.reserveMany(60_000, 20);
    expect(leases.length).toBeGreaterThanOrEqual(10);
  });

  it("waits for replicas on the node of the queue's slot: with none there, an accept and an enqueue fail as store_unavailable", async () => {
    const waiting = await openStore({ kind: 'redis', url: cluster!.url, prefix, minReplicas: 1, waitTimeoutMs: 100 }, { clock });
    try {
      const refused = waiting.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'waited', envelope: {} });
      await expect(refused).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('0 of the 1 replicas') });
      await expect(waiting.outbox.enqueue({ target: 'y', payload: 1 })).rejects.toMatchObject({ code: 'store_unavailable' });
    } finally {
      await waiting.close();
    }
  });

  it('names the cluster nodes, not the password, when none answers', async () => {
    const error = await openStore({ kind: 'redis', url: 'redis+cluster://:hunter2@127.0.0.1:1,127.0.0.1:2', prefix }, { clock }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'store_unavailable' });
    expect(String((error as Error).message)).toContain('cluster nodes 127.0.0.1:1,127.0.0.1:2');
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});
