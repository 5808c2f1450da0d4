import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { rateLimitKey } from '../../src/api/rate-limiter';
import { AdjustableClock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { DEFAULT_PACING, pacedWindow } from '../../src/api/pacing';
import { OutboxSender } from '../../src/outbox/sender';
import { SharedRateLimiter } from '../../src/api/shared-rate-limiter';
import { openStore, type Store, type StoreConfig } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { openTempStore, runClockUntil, startPlatform, TEST_SECRET_KEY, type Platform } from './helpers';
import { fullestWindow, gapsOf, recordGrants, type GrantRecorder } from './pacing-grants';

/**
 * Issue #12, defect 11, through the outbox itself: after a quiet minute a storm of posts and
 * incoming-webhook messages, queued on two replicas sharing the store, goes out one spacing apart per
 * token and per incoming webhook from its first send (the burst a quiet budget allows the runtime's other
 * calls is not the outbox's), and no 60-second window holds more than L. Measured on the injected clock,
 * at the slots the shared budget granted.
 */
const redisUrl = redisTestUrl();
const LIMIT = 20;
const SPACING_MS = pacedWindow(LIMIT, DEFAULT_PACING).spacingMs ?? 0;
const POSTS = 12;
const HOOK_MESSAGES = 8;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Replica {
  store: Store;
  outbox: Outbox;
  sender: OutboxSender;
}

async function openReplica(config: StoreConfig, clock: AdjustableClock, platform: Platform, recorder: GrantRecorder): Promise<Replica> {
  const store = await openStore(config, { clock, secretKey: TEST_SECRET_KEY });
  const limiter = new SharedRateLimiter({ rate: recorder.wrap(store.rate), clock });
  const client = new ApiClient({ baseUrl: platform.baseUrl, token: 'svc_sandbox_token', clock, limiter });
  const sender = new OutboxSender({ store, clock, steps: { clientFor: () => client }, pollMs: 50, random: () => 0.5, lanes: 3, coalesce: false });
  const outbox = new Outbox({ store, clock, sender });
  cleanup.push(async () => {
    await sender.stop(0);
    await client.close();
    await store.close();
  });
  return { store, outbox, sender };
}

async function stormAfterQuietMinute(config: StoreConfig): Promise<void> {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  const platform = await startPlatform(clock);
  cleanup.push(() => platform.close());
  // spec: Limits — "configurable per server": a low limit makes the spacing wide enough to see
  await platform.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: LIMIT });
  const hook = await platform.api<{ data: { url: string } }>('POST', '/incoming-webhooks', { name: 'ops alerts', action: 'chat_message', chat_id: 2 });
  const recorder = recordGrants(clock);
  const replicas = [await openReplica(config, clock, platform, recorder), await openReplica(config, clock, platform, recorder)];
  await replicas[0]?.store.secrets.put('incoming:sandbox:ops', hook.body.data.url);
  const drained = async (): Promise<boolean> => (await replicas[0]?.store.outbox.list())?.length === 0;
  for (const r of replicas) r.sender.start();

  // one post tells the budget its limit (the platform's headers), then the budget stays quiet
  await replicas[0]?.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 1, body: 'before the quiet minute' });
  expect(await runClockUntil(clock, drained, { advanceMs: 100 })).toBe(true);
  clock.advance(2 * 61_000);
  const stormAt = clock.now();

  for (let i = 0; i < POSTS; i += 1) {
    await replicas[i % 2]?.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: (i % 3) + 1, body: `storm post ${i}` });
  }
  for (let i = 0; i < HOOK_MESSAGES; i += 1) {
    await replicas[i % 2]?.outbox.enqueue({
      kind: 'incoming',
      tenant: 'sandbox',
      webhook: { id: 'ops', urlSecretRef: 'incoming:sandbox:ops' },
      action: 'chat_message',
      payload: { text: `storm alert ${i}` },
    });
  }
  expect(await runClockUntil(clock, drained, { advanceMs: 100, maxRealMs: 30_000 })).toBe(true);

  const tokenGrants = recorder.grants(rateLimitKey('svc_sandbox_token')).filter((t) => t >= stormAt);
  const hookGrants = recorder.grants(rateLimitKey(new URL(hook.body.data.url).pathname)).filter((t) => t >= stormAt);
  expect(tokenGrants).toHaveLength(POSTS);
  expect(hookGrants).toHaveLength(HOOK_MESSAGES);
  for (const grants of [tokenGrants, hookGrants]) {
    // spread from the storm's first send: no two closer than one spacing per budget
    expect(Math.min(...gapsOf(grants))).toBeGreaterThanOrEqual(SPACING_MS);
    expect(fullestWindow(grants, 60_000)).toBeLessThanOrEqual(LIMIT);
  }
  const refused = (await platform.requests({ method: 'POST' })).filter((q) => q.status === 429);
  expect(refused).toEqual([]);
}

describe('an outbox storm after a quiet minute', () => {
  it('sends one spacing apart per token and per incoming webhook from the first send, with two replicas sharing SQLite', async () => {
    const temp = await openTempStore(new AdjustableClock({ frozen: true }));
    cleanup.push(() => temp.close());
    await stormAfterQuietMinute(temp.config);
  });
});

describe.skipIf(!redisUrl)('an outbox storm after a quiet minute (Redis)', () => {
  it('sends one spacing apart per token and per incoming webhook from the first send, with two replicas sharing Redis', async () => {
    const prefix = uniqueRedisPrefix('outbox-storm');
    cleanup.push(() => deleteRedisPrefix(redisUrl ?? '', prefix));
    await stormAfterQuietMinute({ kind: 'redis', url: redisUrl ?? '', prefix });
  });
});
