import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/api/rate-limiter';
import { AdjustableClock } from '../../src/clock';
import { RateBudgetHistory } from '../../src/runtime/operations/rate-budget-history';

function recordingLimiter(): RateLimiter & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    acquire: async (key) => void calls.push(`acquire ${key}`),
    observe: (key, budget) => void calls.push(`observe ${key} ${budget?.remaining ?? '-'}`),
    backoff: (key, until) => void calls.push(`backoff ${key} ${until}`),
  };
}

describe('the rate budget history', () => {
  it('passes every call through to the limiter it watches, unchanged', async () => {
    const clock = new AdjustableClock({ frozen: true, start: 0 });
    const inner = recordingLimiter();
    const limiter = new RateBudgetHistory(clock).watch(inner);
    await limiter.acquire('k');
    limiter.observe('k', { limit: 60, remaining: 59 });
    limiter.backoff('k', 5_000);
    expect(inner.calls).toEqual(['acquire k', 'observe k 59', 'backoff k 5000']);
  });

  it("keeps the platform's last word, the requests and the 429s of the last minute per key", async () => {
    const clock = new AdjustableClock({ frozen: true, start: 1_000_000 });
    const history = new RateBudgetHistory(clock);
    const limiter = history.watch(recordingLimiter());
    for (let i = 0; i < 3; i++) {
      await limiter.acquire('token');
      limiter.observe('token', { limit: 60, remaining: 59 - i, resetAtMs: 1_030_000 });
    }
    limiter.backoff('token', 1_040_000);
    await limiter.acquire('hook');
    limiter.observe('hook', undefined);
    const [token, hook] = history.snapshot();
    expect(token).toMatchObject({ key: 'token', last: { limit: 60, remaining: 57, resetAtMs: 1_030_000 }, requestsLastMinute: 3, throttledLastMinute: 1 });
    // no answer, no word from the platform: the request still counts
    expect(hook).toMatchObject({ key: 'hook', last: undefined, requestsLastMinute: 1, samples: [] });
    clock.advance(61_000);
    expect(history.snapshot()[0]).toMatchObject({ requestsLastMinute: 0, throttledLastMinute: 0 });
  });

  it('samples the least left per bucket, carries the last answer forward, and shows the budget whole after its reset', () => {
    const clock = new AdjustableClock({ frozen: true, start: 100_000 });
    const history = new RateBudgetHistory(clock, { bucketMs: 10_000, spanMs: 60_000 });
    const limiter = history.watch(recordingLimiter());
    limiter.observe('token', { limit: 60, remaining: 40, resetAtMs: 125_000 });
    limiter.observe('token', { limit: 60, remaining: 30, resetAtMs: 125_000 });
    limiter.observe('token', { limit: 60, remaining: 35, resetAtMs: 125_000 });
    clock.advance(40_000);
    const samples = history.snapshot()[0]!.samples;
    expect(samples.map((s) => [s.at, s.remaining])).toEqual([
      [100_000, 30],
      [110_000, 35],
      [120_000, 35],
      [130_000, 60],
      [140_000, 60],
    ]);
  });

  it('forgets buckets older than its span', () => {
    const clock = new AdjustableClock({ frozen: true, start: 0 });
    const history = new RateBudgetHistory(clock, { bucketMs: 1_000, spanMs: 10_000 });
    const limiter = history.watch(recordingLimiter());
    limiter.observe('token', { limit: 60, remaining: 1 });
    clock.advance(30_000);
    limiter.observe('token', { limit: 60, remaining: 59 });
    const samples = history.snapshot()[0]!.samples;
    expect(samples.every((s) => s.at >= 20_000)).toBe(true);
    expect(samples.at(-1)?.remaining).toBe(59);
  });
});
