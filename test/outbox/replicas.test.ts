import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store, type StoreConfig } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { openTempStore, rig, runClockUntil, startPlatform, TEST_SECRET_KEY, type Platform, type Rig } from './helpers';

const redisUrl = redisTestUrl();
const LIMIT = 10;
const POSTS = 30;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** Two senders, each with its own store connection, client and limiter: two replicas. */
async function twoReplicas(config: StoreConfig, clock: AdjustableClock, platform: Platform): Promise<{ stores: Store[]; rigs: Rig[] }> {
  const stores: Store[] = [];
  const rigs: Rig[] = [];
  for (let i = 0; i < 2; i += 1) {
    const store = await openStore(config, { clock, secretKey: TEST_SECRET_KEY });
    const replica = rig(store, clock, platform.baseUrl, { lanes: 3 });
    stores.push(store);
    rigs.push(replica);
    cleanup.push(async () => {
      await replica.sender.stop(0);
      await replica.client.close();
      await store.close();
    });
  }
  return { stores, rigs };
}

async function runScenario(config: StoreConfig): Promise<void> {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  const platform = await startPlatform(clock);
  cleanup.push(() => platform.close());
  // spec: Limits — "configurable per server": a low limit makes the shared budget bite in a short test
  await platform.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: LIMIT });
  const { stores, rigs } = await twoReplicas(config, clock, platform);
  const bodies = Array.from({ length: POSTS }, (_, i) => `replica test ${i}`);
  for (const [i, body] of bodies.entries()) {
    await rigs[i % 2]?.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: (i % 3) + 1, body });
  }
  for (const r of rigs) r.sender.start();
  expect(await runClockUntil(clock, async () => (await stores[0]?.outbox.list())?.length === 0, { advanceMs: 250, maxRealMs: 20_000 })).toBe(true);

  const sent = await platform.requests({ method: 'POST', path: '/api/open/v1/walls/' });
  expect(sent.filter((q) => q.status === 429)).toEqual([]);
  // every entry sent once: as many creates as entries, each body once on its wall
  expect(sent).toHaveLength(POSTS);
  const onWalls = (await Promise.all([1, 2, 3].map((w) => platform.wallPosts(w))))
    .flat()
    .map((p) => p.body)
    .filter((b) => b.startsWith('replica test '));
  expect(onWalls.sort()).toEqual([...bodies].sort());
  const times = sent.map((q) => Date.parse(q.at));
  // the clock runs ~125x real time here, so a few ms of HTTP latency shift an arrival by a second of
  // clock: windows are checked a little short (pacing-spread.test.ts checks the grants exactly)
  expect(Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 59_000).length))).toBeLessThanOrEqual(LIMIT);
  // spread, not burst: the outbox's sends are spaced from the first, so no two sends anywhere near each
  // other (half a spacing: arrivals drift with HTTP latency on the fast clock)
  const sorted = [...times].sort((a, b) => a - b);
  expect(Math.min(...sorted.slice(1).map((t, i) => t - (sorted[i] ?? 0)))).toBeGreaterThanOrEqual(60_000 / LIMIT / 2);
  // and it was paced, not refused: 30 posts at 10 a minute take at least two minutes
  expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(2 * 60_000 - 1_000);
}

describe('two senders sharing one store', () => {
  it('stay together under the per-token limit and send each entry once (SQLite file shared by two connections)', async () => {
    const temp = await openTempStore(new AdjustableClock({ frozen: true }));
    cleanup.push(() => temp.close());
    await runScenario(temp.config);
  });
});

describe.skipIf(!redisUrl)('two senders sharing Redis', () => {
  it('stay together under the per-token limit and send each entry once', async () => {
    const prefix = uniqueRedisPrefix('outbox');
    cleanup.push(() => deleteRedisPrefix(redisUrl ?? '', prefix));
    await runScenario({ kind: 'redis', url: redisUrl ?? '', prefix });
  });
});
