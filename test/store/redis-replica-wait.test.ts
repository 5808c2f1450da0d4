import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { AdjustableClock } from '../../src/clock';
import { startPair } from '../../src/testing';
import { sign } from '../../src/webhooks/signature';
import { openStore, type Store } from '../../src/store';
import { guardStore } from '../../src/store/guard-store';
import { uniqueRedisPrefix } from '../helpers/redis';
import { privateRedisAvailable, startReplicatedPair, waitUntil, type PrivateRedisServer } from '../helpers/private-redis';

// a primary and its replica of this file's own: accepts wait (WAIT) for the replica before they are answered
const available = privateRedisAvailable();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

describe.skipIf(!available)('a Redis store that waits for replicas (INTRABOT_REDIS_MIN_REPLICAS)', () => {
  let servers: Awaited<ReturnType<typeof startReplicatedPair>>;
  let primary: PrivateRedisServer;
  let replica: PrivateRedisServer;
  let store: Store;
  const clock = new AdjustableClock({ start: START, frozen: true });
  const prefix = uniqueRedisPrefix('wait');

  beforeAll(async () => {
    servers = await startReplicatedPair();
    ({ primary, replica } = servers);
    store = guardStore(await openStore({ kind: 'redis', url: primary.url, prefix, minReplicas: 1, waitTimeoutMs: 300 }, { clock, secretKey: 'wait-test-key' }));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await servers?.close();
  });

  const waitCalls = async (): Promise<number> => Number(/cmdstat_wait:calls=(\d+)/.exec(await primary.client().info('commandstats'))?.[1] ?? 0);
  const accept = (id: string) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: id, envelope: { id } });

  it('answers an accept once the replica has it, with one WAIT for a batch accepted together', async () => {
    // the first call of a script on a server loads it (NOSCRIPT, then EVAL and a WAIT again)
    await accept('warm-up');
    const before = await waitCalls();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => accept(`batch-${i}`)));
    expect(results.every((r) => r.accepted)).toBe(true);
    expect((await waitCalls()) - before).toBe(1);
    // on the replica already when answered: WAIT counted it
    const onReplica = await replica.client().zcard(`${prefix}:q:inbox:live`);
    expect(onReplica).toBe(21);
  });

  it('answers an outbox enqueue once the replica has it', async () => {
    const queued = await store.outbox.enqueue({ target: 'wall:1', payload: { n: 1 } });
    expect(await replica.client().hget(`${prefix}:q:outbox:e:${queued.id}`, 'id')).toBe(queued.id);
  });

  it('fails an accept and an enqueue as store_unavailable when no replica confirms in time, and acknowledges the retry once the replica is back', async () => {
    await replica.kill();
    await waitUntil('the primary to see its replica gone', async () => (await primary.client().info('replication')).includes('connected_slaves:0'));
    await expect(accept('while-gone')).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('0 of the 1 replicas') });
    await expect(store.outbox.enqueue({ target: 'wall:2', payload: { n: 2 } })).rejects.toMatchObject({ code: 'store_unavailable' });
    await replica.start();
    await waitUntil('the replica to be back in sync', async () => (await replica.client().info('replication')).includes('master_link_status:up'));
    // the platform's retry: the delivery written before the failed WAIT is a duplicate now, answered only
    // once the replica confirms it too
    expect(await accept('while-gone')).toEqual({ accepted: false, duplicateOf: 'delivery' });
    const stored = (await store.inbox.list({ limit: 100 })).filter((e) => e.payload.deliveryId === 'while-gone');
    expect(stored).toHaveLength(1);
    expect(await replica.client().zscore(`${prefix}:q:inbox:live`, stored[0]!.id)).not.toBeNull();
  }, 30_000);

  it("writes again what a duplicate finds, so that its WAIT covers the first accept, made on another replica's connection", async () => {
    const other = await openStore({ kind: 'redis', url: primary.url, prefix, minReplicas: 1, waitTimeoutMs: 300 }, { clock });
    try {
      await accept('seen-elsewhere');
      const sets = async () => Number(/cmdstat_set:calls=(\d+)/.exec(await primary.client().info('commandstats'))?.[1] ?? 0);
      const before = await sets();
      // WAIT waits for this connection's last write: without one, it would not cover the first accept
      // (the script's SET of the dedupe key, unchanged, is that write; a plain duplicate only reads)
      expect(await other.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'seen-elsewhere', envelope: {} })).toEqual({
        accepted: false,
        duplicateOf: 'delivery',
      });
      expect((await sets()) - before).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('answers a signed delivery 503 with Retry-After over HTTP while no replica confirms, and 200 once one does', async () => {
    const pair = await startPair({ bots: ['ops'], store });
    try {
      const secret = (await store.secrets.get(webhookSecretName('sandbox', 'ops')))!;
      const deliver = (id: string): Promise<Response> => {
        const nowS = Math.floor(pair.clock.now() / 1000);
        const body = JSON.stringify({ id, event: 'service.post.created', version: 'v1', timestamp: nowS, customer: 'sandbox', payload: { id: 1 } });
        return fetch(`${pair.runtime.inspect().url}/hooks/sandbox/ops`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', timestamp: String(nowS), signature: sign(secret, nowS, body) },
          body,
        });
      };
      const id = randomUUID();
      await replica.kill();
      const refused = await deliver(id);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      await replica.start();
      await waitUntil('the replica to be back in sync', async () => (await replica.client().info('replication')).includes('master_link_status:up'));
      expect((await deliver(id)).status).toBe(200);
    } finally {
      await pair.close();
    }
  }, 60_000);
});
