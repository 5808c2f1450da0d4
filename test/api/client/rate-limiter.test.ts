import { describe, expect, it } from 'vitest';
import { farRateHeader, parseRateBudget, parseReset, parseRetryAfter, rateLimitedWaitFromHeaders } from '../../../src/api/rate-headers';
import { MemoryRateLimiter, rateLimitKey } from '../../../src/api/rate-limiter';
import { AdjustableClock } from '../../../src/clock';
import { settle } from './platform-double';

const T0 = Date.UTC(2030, 0, 15, 9, 0, 0);

function limiter(options: { resetMarginMs?: number } = {}) {
  const clock = new AdjustableClock({ start: T0, frozen: true });
  return { clock, limiter: new MemoryRateLimiter({ clock, resetMarginMs: options.resetMarginMs ?? 0 }) };
}

/** Starts `n` acquires and reports how many have passed so far. */
function race(acquire: () => Promise<void>, n: number) {
  let passed = 0;
  const all = Array.from({ length: n }, () => acquire().then(() => (passed += 1)));
  return { passed: () => passed, all: Promise.all(all) };
}

describe('rate-limit headers (spec: Limits)', () => {
  it('reads X-RateLimit-Reset as seconds from now when small', () => {
    expect(parseReset('30', T0)).toBe(T0 + 30_000);
  });

  it('reads X-RateLimit-Reset as an epoch in seconds when above 10^9', () => {
    expect(parseReset(String(T0 / 1000 + 30), 0)).toBe(T0 + 30_000);
  });

  it('ignores an unreadable reset', () => {
    expect(parseReset('soon', T0)).toBeUndefined();
  });

  it('reads Retry-After in seconds', () => {
    expect(parseRetryAfter('12', T0)).toBe(12_000);
  });

  it('reads Retry-After as an HTTP date', () => {
    expect(parseRetryAfter(new Date(T0 + 45_000).toUTCString(), T0)).toBe(45_000);
    expect(parseRetryAfter(new Date(T0 - 5_000).toUTCString(), T0)).toBe(0);
  });

  it('reads the three headers into a budget, and nothing when none is there', () => {
    const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '20' };
    expect(parseRateBudget(headers, T0)).toEqual({ limit: 60, remaining: 12, resetAtMs: T0 + 20_000 });
    expect(parseRateBudget({}, T0)).toBeUndefined();
  });

  it("takes a 429's wait from Retry-After, else from an X-RateLimit-Reset ahead, else names none", () => {
    expect(rateLimitedWaitFromHeaders({ 'retry-after': '7', 'x-ratelimit-reset': '30' }, T0)).toBe(7_000);
    expect(rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': '30' }, T0)).toBe(30_000);
    expect(rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': String(T0 / 1000 - 5) }, T0)).toBeUndefined();
    expect(rateLimitedWaitFromHeaders({}, T0)).toBeUndefined();
  });

  it('clamps a reset or Retry-After beyond the 60 s window to the window, and reports the header as received (spec: Limits; issue #15)', () => {
    const hourAhead = String(T0 / 1000 + 3_600);
    expect(rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': hourAhead }, T0)).toBe(60_000);
    expect(rateLimitedWaitFromHeaders({ 'retry-after': '1860' }, T0)).toBe(60_000);
    expect(parseRateBudget({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': hourAhead }, T0)).toMatchObject({ resetAtMs: T0 + 60_000 });
    expect(farRateHeader({ 'x-ratelimit-reset': hourAhead }, T0)).toEqual({ header: 'x-ratelimit-reset', received: hourAhead, aheadMs: 3_600_000 });
    expect(farRateHeader({ 'retry-after': '1860' }, T0)).toEqual({ header: 'retry-after', received: '1860', aheadMs: 1_860_000 });
    expect(farRateHeader({ 'x-ratelimit-reset': '30', 'retry-after': '60' }, T0)).toBeUndefined();
  });

  it('does not report an ordinary reset a fraction of a second past the window (whole seconds round up)', () => {
    // the sandbox's reset for a window that opened 0.4 s ago: 60.6 s ahead of a clock between seconds
    const ordinary = String(Math.ceil((T0 + 60_600) / 1000));
    expect(farRateHeader({ 'x-ratelimit-reset': ordinary }, T0)).toBeUndefined();
    expect(rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': ordinary }, T0)).toBeLessThanOrEqual(60_000);
  });
});

describe('MemoryRateLimiter', () => {
  it('starts a new window when its reset lies further ahead than a window can (the clock was moved back)', async () => {
    const { clock, limiter: rl } = limiter();
    await rl.acquire('k');
    rl.observe('k', { limit: 60, remaining: 0, resetAtMs: T0 + 60_000 });
    rl.backoff('k', T0 + 30_000);
    clock.set(T0 - 7 * 86_400_000);
    const run = race(() => rl.acquire('k'), 1);
    await settle();
    expect(run.passed()).toBe(1);
  });

  it('keys a token by a hash, never by the token itself', () => {
    const key = rateLimitKey('svc_abc');
    expect(key).not.toContain('svc_abc');
    expect(key).toBe(rateLimitKey('svc_abc'));
    expect(key).not.toBe(rateLimitKey('svc_abd'));
  });

  it('sends a single probe while it knows nothing, and holds the rest until its answer', async () => {
    const { limiter: rl } = limiter();
    const run = race(() => rl.acquire('k'), 5);
    await settle();
    expect(run.passed()).toBe(1);
    rl.observe('k', { limit: 60, remaining: 59, resetAtMs: T0 + 60_000 });
    await settle();
    expect(run.passed()).toBe(5);
  });

  it('keeps probing one at a time while requests get no answer at all', async () => {
    const { limiter: rl } = limiter();
    const run = race(() => rl.acquire('k'), 3);
    await settle();
    rl.observe('k', undefined); // a network failure taught nothing
    await settle();
    expect(run.passed()).toBe(2);
  });

  it('allows at most 60 requests a minute when answers carry no rate headers', async () => {
    const { clock, limiter: rl } = limiter();
    await rl.acquire('k');
    rl.observe('k', {});
    const run = race(() => rl.acquire('k'), 60);
    await settle();
    expect(run.passed()).toBe(59);
    clock.advance(59_999);
    await settle();
    expect(run.passed()).toBe(59);
    clock.advance(1);
    await settle();
    expect(run.passed()).toBe(60);
  });

  it('lets only one of several concurrent requests pass when one request remains', async () => {
    const { clock, limiter: rl } = limiter();
    await rl.acquire('k');
    rl.observe('k', { limit: 60, remaining: 1, resetAtMs: T0 + 10_000 });
    const run = race(() => rl.acquire('k'), 3);
    await settle();
    expect(run.passed()).toBe(1);
    clock.advance(10_000);
    await run.all;
    expect(run.passed()).toBe(3);
  });

  it('counts requests still in flight as spent when a response reports the budget', async () => {
    const { limiter: rl } = limiter();
    await rl.acquire('k');
    rl.observe('k', {});
    await rl.acquire('k');
    await rl.acquire('k');
    await rl.acquire('k');
    // the platform counted only one of three: 2 left for it, but 2 more of ours are on the way
    rl.observe('k', { limit: 60, remaining: 2, resetAtMs: T0 + 30_000 });
    const run = race(() => rl.acquire('k'), 1);
    await settle();
    expect(run.passed()).toBe(0);
  });

  it('waits out a backoff before anything else is sent under the key', async () => {
    const { clock, limiter: rl } = limiter();
    rl.backoff('k', T0 + 5_000);
    const run = race(() => rl.acquire('k'), 1);
    await settle();
    expect(run.passed()).toBe(0);
    clock.advance(5_000);
    await settle();
    expect(run.passed()).toBe(1);
  });

  it('paces keys independently', async () => {
    const { limiter: rl } = limiter();
    await rl.acquire('a');
    await rl.acquire('b');
    rl.observe('b', {});
    rl.observe('a', { remaining: 0, resetAtMs: T0 + 30_000 });
    const run = race(() => rl.acquire('b'), 1);
    await settle();
    expect(run.passed()).toBe(1);
  });

  it('stops waiting when the signal aborts', async () => {
    const { limiter: rl } = limiter();
    rl.backoff('k', T0 + 60_000);
    const controller = new AbortController();
    const waiting = rl.acquire('k', controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });
});
