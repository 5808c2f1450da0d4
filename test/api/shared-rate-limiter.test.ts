import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { SharedRateLimiter } from '../../src/api/shared-rate-limiter';
import { openTempStore, type TestStore } from '../outbox/helpers';

let temp: TestStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

async function setup() {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  temp = await openTempStore(clock);
  // bursts allowed: these tests count the shared log; spreading is checked in pacing-spread.test.ts
  const make = () => new SharedRateLimiter({ rate: temp!.store.rate, clock, pacing: { marginMs: 0, spread: false } });
  return { clock, a: make(), b: make() };
}

/** Acquires as often as it can without the clock moving. */
async function grantsNow(limiter: SharedRateLimiter, clock: AdjustableClock, key: string, tries: number): Promise<number> {
  let granted = 0;
  for (let i = 0; i < tries; i += 1) {
    const controller = new AbortController();
    let settled = false;
    const attempt = limiter.acquire(key, controller.signal).then(
      () => true,
      () => false,
    );
    void attempt.finally(() => (settled = true));
    // whatever is not granted at once is waiting for the clock (a timer on it): abort it
    const timers = clock.pendingTimers;
    while (!settled && clock.pendingTimers === timers) await new Promise(setImmediate);
    controller.abort();
    if (await attempt) {
      granted += 1;
      limiter.observe(key, {});
    }
  }
  return granted;
}

describe('SharedRateLimiter', () => {
  it('says before a wait of a second or more for budget, with its length (issue #15: never silent while waiting)', async () => {
    const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
    temp = await openTempStore(clock);
    const waits: number[] = [];
    const limiter = new SharedRateLimiter({ rate: temp.store.rate, clock, pacing: { marginMs: 0, spread: false }, onWait: (ms) => waits.push(ms) });
    await limiter.acquire('rl:token');
    // the platform's answer: the budget is spent until the window ends
    limiter.observe('rl:token', { limit: 60, remaining: 0, resetAtMs: clock.now() + 60_000 });
    const next = limiter.acquire('rl:token');
    await expect.poll(() => waits.length).toBeGreaterThan(0);
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
    clock.advance(60_000);
    await next;
  });

  it('gives two replicas 60 requests a minute between them, not 60 each (spec: Limits)', async () => {
    const { clock, a, b } = await setup();
    const first = (await grantsNow(a, clock, 'rl:token', 40)) + (await grantsNow(b, clock, 'rl:token', 40));
    expect(first).toBe(60);
    clock.advance(60_001);
    expect(await grantsNow(b, clock, 'rl:token', 70)).toBe(60);
  });

  it('keeps each incoming webhook on its own budget', async () => {
    const { clock, a } = await setup();
    expect(await grantsNow(a, clock, 'rl:hook-1', 61)).toBe(60);
    expect(await grantsNow(a, clock, 'rl:hook-2', 5)).toBe(5);
  });

  it('counts what the platform says was spent elsewhere (X-RateLimit-Remaining)', async () => {
    const { clock, a, b } = await setup();
    expect(await grantsNow(a, clock, 'rl:token', 1)).toBe(1);
    // the answer says 50 of 60 are gone: someone else uses the token too
    a.observe('rl:token', { limit: 60, remaining: 10, resetAtMs: clock.now() + 30_000 });
    await a.flushed();
    expect(await grantsNow(b, clock, 'rl:token', 20)).toBe(10);
  });

  it("blocks every replica until a 429's Retry-After has passed", async () => {
    const { clock, a, b } = await setup();
    expect(await grantsNow(a, clock, 'rl:token', 1)).toBe(1);
    a.backoff('rl:token', clock.now() + 10_000);
    await a.flushed();
    expect(await grantsNow(b, clock, 'rl:token', 3)).toBe(0);
    clock.advance(10_001);
    expect(await grantsNow(b, clock, 'rl:token', 3)).toBe(3);
  });

  it('sends one request to learn an unknown budget, then lets every waiting caller through', async () => {
    const { a } = await setup();
    let inFlight = 0;
    let most = 0;
    const callers = Array.from({ length: 6 }, async () => {
      await a.acquire('rl:fresh');
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      a.observe('rl:fresh', { limit: 60, remaining: 50 });
    });
    const all = Promise.all(callers).then(() => true);
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000));
    expect(await Promise.race([all, timeout])).toBe(true);
    expect(most).toBeGreaterThan(1);
  });

  it('lets only one request out while the budget is unknown', async () => {
    const { a } = await setup();
    let granted = 0;
    const failures: unknown[] = [];
    for (let i = 0; i < 3; i += 1)
      void a.acquire('rl:fresh').then(
        () => (granted += 1),
        (error: unknown) => failures.push(error),
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ granted, failures }).toEqual({ granted: 1, failures: [] });
    a.observe('rl:fresh', { limit: 60, remaining: 59 });
    await vi.waitFor(() => expect(granted + failures.length).toBe(3));
    expect({ granted, failures }).toEqual({ granted: 3, failures: [] });
  });

  it('learns a lower limit from X-RateLimit-Limit', async () => {
    const { clock, a } = await setup();
    expect(await grantsNow(a, clock, 'rl:token', 1)).toBe(1);
    a.observe('rl:token', { limit: 5, remaining: 4, resetAtMs: clock.now() + 60_000 });
    expect(await grantsNow(a, clock, 'rl:token', 10)).toBe(4);
  });
});
