import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_BACKOFF, planRetry, rateLimitedBackoffMs, retryDelayMs } from '../../src/outbox/retry-plan';

describe('backoffMs', () => {
  const policy = { baseMs: 1_000, maxMs: 60_000 };

  it.each([
    [1, 0, 500],
    [1, 1, 1_000],
    [2, 0.5, 1_500],
    [3, 1, 4_000],
    [10, 1, 60_000],
    [10, 0, 30_000],
  ])('waits between half and all of the doubled ceiling (attempt %i, random %d -> %i ms)', (attempt, random, expected) => {
    expect(backoffMs(attempt, policy, random)).toBe(expected);
  });

  it('never waits less than the floor (a Retry-After, the reconcile delay)', () => {
    expect(backoffMs(1, policy, 0, 30_000)).toBe(30_000);
    expect(backoffMs(8, policy, 1, 30_000)).toBe(60_000);
  });

  it('spreads entries that failed together over the window instead of bringing them back together', () => {
    const delays = new Set([0, 0.25, 0.5, 0.75, 1].map((r) => backoffMs(4, DEFAULT_BACKOFF, r)));
    expect(delays.size).toBe(5);
  });
});

describe('rateLimitedBackoffMs', () => {
  it('doubles per attempt after a 429 that named no wait, and never waits longer than the one-minute window (spec: Limits)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => rateLimitedBackoffMs(n, DEFAULT_BACKOFF, 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
    expect(rateLimitedBackoffMs(30, DEFAULT_BACKOFF, 1)).toBe(60_000);
    expect(rateLimitedBackoffMs(30, DEFAULT_BACKOFF, 0)).toBe(30_000);
  });
});

describe('retryDelayMs', () => {
  const base = { floorMs: 0, policy: DEFAULT_BACKOFF, random: () => 1 };

  it("waits out a 429's Retry-After, a little jitter after, never earlier (spec: Limits)", () => {
    expect(retryDelayMs({ ...base, failure: { kind: 'rate', retryAfterMs: 20_000 }, attempts: 1 })).toBe(21_000);
    expect(retryDelayMs({ ...base, failure: { kind: 'rate', retryAfterMs: 20_000 }, attempts: 1, random: () => 0 })).toBe(20_000);
  });

  it('waits at most one rate window, whatever a Retry-After says beyond it (spec: Limits; issue #15)', () => {
    expect(retryDelayMs({ ...base, failure: { kind: 'rate', retryAfterMs: 1_860_000 }, attempts: 1, random: () => 0 })).toBe(60_000);
    expect(retryDelayMs({ ...base, failure: { kind: 'rate', retryAfterMs: 1_860_000 }, attempts: 1 })).toBe(61_000);
  });

  it('backs a 429 that named no wait off per attempt, up to one window', () => {
    expect(retryDelayMs({ ...base, failure: { kind: 'rate' }, attempts: 1 })).toBe(1_000);
    expect(retryDelayMs({ ...base, failure: { kind: 'rate' }, attempts: 5 })).toBe(16_000);
    expect(retryDelayMs({ ...base, failure: { kind: 'rate' }, attempts: 12 })).toBe(60_000);
  });

  it('backs other failures off from the floor', () => {
    expect(retryDelayMs({ ...base, failure: { kind: 'uncertain' }, attempts: 1, floorMs: 30_000 })).toBe(30_000);
    expect(retryDelayMs({ ...base, failure: { kind: 'transient' }, attempts: 12 })).toBe(DEFAULT_BACKOFF.maxMs);
  });
});

describe('planRetry', () => {
  it('retries while the retry time is within the deadline', () => {
    expect(planRetry(1_000, 500, 2_000)).toEqual({ kind: 'retry', atMs: 1_500 });
    expect(planRetry(1_000, 1_000, 2_000)).toEqual({ kind: 'retry', atMs: 2_000 });
  });

  it('gives up once the retry would fall after the deadline', () => {
    expect(planRetry(1_000, 1_001, 2_000)).toEqual({ kind: 'expired' });
  });
});
