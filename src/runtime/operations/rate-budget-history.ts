import type { RateBudget } from '../../api/rate-headers';
import type { AcquireOptions, RateLimiter } from '../../api/rate-limiter';
import type { Clock } from '../../clock';

/** The platform's last word on one budget. */
export interface RateObservation {
  limit: number;
  remaining: number;
  resetAtMs: number | undefined;
  at: number;
}

/** One bucket of a budget's history: the least remaining seen in it, and what was sent. */
export interface RateBucket {
  at: number;
  remaining: number;
  limit: number;
  requests: number;
  throttled: number;
}

export interface RateKeyHistory {
  /** The limiter's key (a hash of the token or of the webhook's path, never either). */
  key: string;
  last: RateObservation | undefined;
  requestsLastMinute: number;
  throttledLastMinute: number;
  /** Oldest first, one per bucket from the first observation on. */
  samples: RateBucket[];
}

export interface RateBudgetHistoryOptions {
  bucketMs?: number;
  spanMs?: number;
}

interface Bucket {
  /** The least remaining answered in this bucket, and the last answer in it. */
  least: number | undefined;
  last: RateObservation | undefined;
  requests: number;
  throttled: number;
}

interface KeyState {
  last: RateObservation | undefined;
  buckets: Map<number, Bucket>;
  sent: number[];
  throttled: number[];
}

const MINUTE_MS = 60_000;

/**
 * The rate budgets over time, for the console's gauges: what the platform said was left
 * (`X-RateLimit-*`) after each request, the requests this process sent and the 429s it got, per
 * limiter key, in buckets of 10 s over the last 30 minutes. It watches the runtime's limiter as a
 * decorator (`watch`), so the pacing itself is untouched; this process's view only (each replica
 * keeps its own; the remaining count is the platform's, so it covers every replica's spending).
 *
 * @example
 * const history = new RateBudgetHistory(clock);
 * const api = createApiClient({ baseUrl, token, clock, limiter: history.watch(limiter) });
 */
export class RateBudgetHistory {
  private readonly keys = new Map<string, KeyState>();
  readonly bucketMs: number;
  readonly spanMs: number;

  constructor(
    private readonly clock: Clock,
    options: RateBudgetHistoryOptions = {},
  ) {
    this.bucketMs = options.bucketMs ?? 10_000;
    this.spanMs = options.spanMs ?? 30 * MINUTE_MS;
  }

  /** `limiter`, reporting to this history as it works. */
  watch(limiter: RateLimiter): RateLimiter {
    return new WatchedLimiter(limiter, this);
  }

  /** Every key seen, with its history up to now. */
  snapshot(): RateKeyHistory[] {
    const now = this.clock.now();
    return [...this.keys].map(([key, state]) => {
      this.prune(state, now);
      return {
        key,
        last: state.last,
        requestsLastMinute: state.sent.length,
        throttledLastMinute: state.throttled.length,
        samples: this.samples(state, now),
      };
    });
  }

  /** Told by its `WatchedLimiter`. */
  sent(key: string): void {
    const now = this.clock.now();
    const state = this.state(key);
    state.sent.push(now);
    this.bucket(state, now).requests += 1;
  }

  /** Told by its `WatchedLimiter`. */
  throttled(key: string): void {
    const now = this.clock.now();
    const state = this.state(key);
    state.throttled.push(now);
    this.bucket(state, now).throttled += 1;
  }

  /** Told by its `WatchedLimiter`. */
  observed(key: string, budget: RateBudget | undefined): void {
    if (budget?.remaining === undefined) return;
    const now = this.clock.now();
    const state = this.state(key);
    const limit = budget.limit ?? state.last?.limit ?? 60;
    state.last = { limit, remaining: budget.remaining, resetAtMs: budget.resetAtMs, at: now };
    const bucket = this.bucket(state, now);
    bucket.least = Math.min(bucket.least ?? Number.POSITIVE_INFINITY, budget.remaining);
    bucket.last = state.last;
  }

  /**
   * One sample per bucket since the first answer in the span: a bucket with answers shows the least
   * remaining among them; one without carries the last answer forward, full again once the
   * platform's window has reset (a minute after the answer when it gave no reset time).
   */
  private samples(state: KeyState, now: number): RateBucket[] {
    const out: RateBucket[] = [];
    let known: { remaining: number; limit: number; resetsAt: number } | undefined;
    const first = Math.floor((now - this.spanMs) / this.bucketMs) * this.bucketMs;
    for (let at = first; at <= now; at += this.bucketMs) {
      const bucket = state.buckets.get(at);
      const requests = bucket?.requests ?? 0;
      const throttled = bucket?.throttled ?? 0;
      if (bucket?.last) {
        known = { remaining: bucket.last.remaining, limit: bucket.last.limit, resetsAt: bucket.last.resetAtMs ?? bucket.last.at + MINUTE_MS };
        out.push({ at, remaining: bucket.least ?? bucket.last.remaining, limit: bucket.last.limit, requests, throttled });
      } else if (known) {
        out.push({ at, remaining: known.resetsAt <= at ? known.limit : known.remaining, limit: known.limit, requests, throttled });
      }
    }
    return out;
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { last: undefined, buckets: new Map(), sent: [], throttled: [] };
      this.keys.set(key, state);
    }
    return state;
  }

  private bucket(state: KeyState, now: number): Bucket {
    const at = Math.floor(now / this.bucketMs) * this.bucketMs;
    let bucket = state.buckets.get(at);
    if (!bucket) {
      bucket = { least: undefined, last: undefined, requests: 0, throttled: 0 };
      state.buckets.set(at, bucket);
      this.prune(state, now);
    }
    return bucket;
  }

  private prune(state: KeyState, now: number): void {
    const horizon = now - this.spanMs - this.bucketMs;
    for (const at of state.buckets.keys()) if (at < horizon) state.buckets.delete(at);
    state.sent = state.sent.filter((at) => now - at < MINUTE_MS);
    state.throttled = state.throttled.filter((at) => now - at < MINUTE_MS);
  }
}

/** A limiter whose acquires, observed budgets and back-offs are also told to a `RateBudgetHistory`. */
class WatchedLimiter implements RateLimiter {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly history: RateBudgetHistory,
  ) {}

  async acquire(key: string, signal?: AbortSignal, options?: AcquireOptions): Promise<void> {
    await this.limiter.acquire(key, signal, options);
    this.history.sent(key);
  }

  observe(key: string, budget: RateBudget | undefined): void {
    this.limiter.observe(key, budget);
    this.history.observed(key, budget);
  }

  backoff(key: string, untilMs: number): void {
    this.limiter.backoff(key, untilMs);
    this.history.throttled(key);
  }
}
