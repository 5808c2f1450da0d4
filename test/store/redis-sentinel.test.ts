import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { guardStore } from '../../src/store/guard-store';
import { uniqueRedisPrefix } from '../helpers/redis';
import { privateRedisAvailable, startSentinelSet, waitUntil, type PrivateSentinelSet } from '../helpers/private-redis';

// one primary, one replica, three sentinels of this file's own; accepts wait for the replica (WAIT 1)
const available = privateRedisAvailable();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

describe.skipIf(!available)('a Redis store through Sentinel', () => {
  let set: PrivateSentinelSet;
  let store: Store;
  const clock = new AdjustableClock({ start: START, frozen: true });
  const prefix = uniqueRedisPrefix('sentinel');

  beforeAll(async () => {
    set = await startSentinelSet('intrabot-test');
    store = guardStore(await openStore({ kind: 'redis', url: set.url, prefix, minReplicas: 1, waitTimeoutMs: 500 }, { clock, secretKey: 'sentinel-test-key' }));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await set?.close();
  });

  it('keeps every accept it acknowledged across a failover, once each, and follows the new primary by itself', async () => {
    const firstPrimary = await set.primaryPort();
    const acknowledged = new Set<string>();
    const refused = new Set<string>();
    let failedOver = false;
    let afterFailover = 0;
    let n = 0;
    // the platform's behaviour: deliveries keep coming, and one that was refused (503) is sent again
    // until it is acknowledged
    const round = async (): Promise<void> => {
      const ids = [...refused, ...Array.from({ length: 4 }, () => `d-${n++}`)];
      const results = await Promise.allSettled(ids.map((id) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: id, envelope: { id } })));
      results.forEach((result, i) => {
        const id = ids[i]!;
        if (result.status === 'fulfilled') {
          acknowledged.add(id);
          refused.delete(id);
          if (failedOver) afterFailover++;
        } else {
          expect(result.reason).toMatchObject({ code: 'store_unavailable' });
          refused.add(id);
        }
      });
    };
    for (let i = 0; i < 10; i++) await round();
    expect(acknowledged.size).toBe(40);
    await set.sentinels[0]!.client().call('SENTINEL', 'FAILOVER', set.name);
    // with one replica, the new primary has none until Sentinel turns the old primary into its replica
    // (8 to 18 s: Sentinel waits before it corrects an instance's role); accepts are refused meanwhile
    await waitUntil(
      'the failover, and accepts acknowledged after it',
      async () => {
        await round();
        if (!failedOver && (await set.primaryPort()) !== firstPrimary) failedOver = true;
        return failedOver && afterFailover >= 40 && refused.size === 0;
      },
      45_000,
    );
    expect(await set.primaryPort()).toBe(set.replica.port);
    // read on the new primary: every acknowledged delivery, each once
    const newPrimary = set.replica.client();
    expect((await newPrimary.info('replication')).includes('role:master')).toBe(true);
    const stored = (await store.inbox.list({ limit: 10_000 })).map((e) => e.payload.deliveryId);
    expect(new Set(stored).size).toBe(stored.length);
    for (const id of acknowledged) expect(stored).toContain(id);
    expect(await newPrimary.zcard(`${prefix}:q:inbox:live`)).toBe(stored.length);
  }, 90_000);
});
