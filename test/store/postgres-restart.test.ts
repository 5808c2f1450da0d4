import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';

/**
 * PostgreSQL restarted under a store (issue #26, faults): on a server of this test's own, so the shared
 * one keeps running for everyone else.
 */
const server: PrivatePostgres | undefined = await startPrivatePostgres();

describe.skipIf(!server)('postgres store when its server restarts', () => {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 9, 0, 0), frozen: true });
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ kind: 'postgres', url: server!.url }, { clock });
  });

  afterAll(async () => {
    await store?.close();
    server?.close();
  });

  it('loses no acknowledged delivery and doubles none when the server restarts mid-stream, and recovers by itself', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `restart-${i}`);
    const acknowledged = new Set<string>();
    // a platform that sends again what was not acknowledged
    const send = async (deliveryId: string): Promise<void> => {
      for (let attempt = 0; attempt < 1_000 && !acknowledged.has(deliveryId); attempt += 1) {
        try {
          await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId, envelope: { id: deliveryId } });
          acknowledged.add(deliveryId);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    let restarted = false;
    const stream = (async () => {
      for (let i = 0; i < ids.length; i += 10) {
        await Promise.all(ids.slice(i, i + 10).map(send));
        if (!restarted && acknowledged.size >= 60) {
          restarted = true;
          // while the next accepts are in flight: every connection of the store goes
          const next = Promise.all(ids.slice(i + 10, i + 20).map(send));
          server!.restart();
          await next;
          i += 10;
        }
      }
    })();
    await stream;
    expect(restarted).toBe(true);
    expect(acknowledged.size).toBe(ids.length);
    const stored = (await store.inbox.list({ limit: 1_000 })).map((e) => e.payload.deliveryId);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual([...ids].sort());
  });

  it('says it is unavailable while the server is stopped, and answers again once it is back', async () => {
    server!.stop();
    try {
      await expect(store.ping()).rejects.toBeDefined();
      await expect(store.kv('k').get('x')).rejects.toBeDefined();
    } finally {
      server!.start();
    }
    await store.ping();
    await store.kv('k').set('x', 1);
    expect(await store.kv('k').get('x')).toBe(1);
    const leases = await store.inbox.reserveMany(30_000, 5);
    expect(leases).toHaveLength(5);
  });
});
