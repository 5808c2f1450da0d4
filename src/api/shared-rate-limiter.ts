import type { RateBudget } from './rate-headers';
import type { AcquireOptions, Pace, RateLimiter } from './rate-limiter';
import type { Clock } from '../clock';
import type { SharedRateBudget } from '../store/rate-budget';
import { DEFAULT_PACING, pacedWindow, type PacingOptions } from './pacing';
import { RATE_WAIT_NOTICE_MS } from './rate-notice';

export interface SharedRateLimiterOptions {
  rate: SharedRateBudget;
  clock: Clock;
  pacing?: Partial<PacingOptions>;
  /** Where a failed write to the store is reported (pacing goes on with what the store knows). */
  onError?: (error: unknown) => void;
  /** Told before a wait of a second or more for budget, with its length (the runtime logs it; a command shows it). */
  onWait?: (waitMs: number) => void;
}

/**
 * The API client's `RateLimiter` over `store.rate`: every replica sharing the store draws from one
 * budget per token and per incoming webhook (spec: Limits), so together they stay under 60 per
 * minute. A request paced `spread` (the outbox's sends) is always one spacing, (60 s + margin) / limit,
 * after the key's latest grant; the others go back to back until half the budget is in use, then are
 * spread too (see `PacingOptions`).
 * The platform's `X-RateLimit-*` headers correct the shared log when someone else spent part of the
 * budget, and a 429's `Retry-After` blocks the key for every replica until it has passed.
 *
 * @example
 * const limiter = new SharedRateLimiter({ rate: store.rate, clock });
 * const client = new ApiClient({ baseUrl, token, clock, limiter });
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly rate: SharedRateBudget;
  private readonly clock: Clock;
  private readonly pacing: PacingOptions;
  private readonly onError: (error: unknown) => void;
  private readonly onWait: ((waitMs: number) => void) | undefined;
  private readonly limits = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();
  private readonly observed = new Map<string, { limit: number; remaining: number; resetAtMs: number | undefined }>();
  /** Keys whose limit an answer has told us; until then one request at a time learns it. */
  private readonly known = new Set<string>();
  private readonly probes = new Map<string, { done: Promise<void>; resolve: () => void }>();
  /** Store writes still under way (`flushed`). */
  private readonly writes = new Set<Promise<void>>();

  constructor(options: SharedRateLimiterOptions) {
    this.rate = options.rate;
    this.clock = options.clock;
    this.pacing = { ...DEFAULT_PACING, ...options.pacing };
    this.onError = options.onError ?? (() => undefined);
    this.onWait = options.onWait;
  }

  /** The limit in force for `key`: the platform's last `X-RateLimit-Limit`, else the default. */
  limitOf(key: string): number {
    return this.limits.get(key) ?? this.pacing.defaultLimit;
  }

  async acquire(key: string, signal?: AbortSignal, options: AcquireOptions = {}): Promise<void> {
    const pace = options.pace ?? 'burst';
    for (;;) {
      signal?.throwIfAborted();
      if (this.known.has(key)) return this.take(key, pace, signal);
      const probe = this.probes.get(key);
      if (probe) {
        await abortable(probe.done, signal);
        continue;
      }
      // claimed before any await: two callers can never both think they are the probe
      this.startProbe(key);
      try {
        return await this.take(key, pace, signal);
      } catch (error) {
        this.endProbe(key, false);
        throw error;
      }
    }
  }

  /**
   * Reserves the next slot of the shared budget (past any `Retry-After`) and waits for it. A slot
   * reserved before a 429 came is given up (a gap in the spacing, never an extra request).
   */
  private async take(key: string, pace: Pace, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const blocked = (this.blockedUntil.get(key) ?? 0) - this.clock.now();
      // further ahead than a window (waits are bounded by it): set before the clock was moved back
      if (blocked > this.pacing.windowMs + 2 * this.pacing.marginMs) {
        this.blockedUntil.delete(key);
        continue;
      }
      if (blocked > 0) {
        await this.sleep(blocked, signal);
        continue;
      }
      const decision = await this.rate.take(key, pacedWindow(this.limitOf(key), this.pacing, pace));
      if (!decision.ok) {
        await this.sleep(Math.max(1, decision.waitMs), signal);
        continue;
      }
      if (decision.waitMs > 0) await this.sleep(decision.waitMs, signal);
      if ((this.blockedUntil.get(key) ?? 0) <= this.clock.now()) return;
    }
  }

  /** Waits on the clock, saying so first when the wait is long enough to notice. */
  private async sleep(waitMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (waitMs >= RATE_WAIT_NOTICE_MS) this.onWait?.(waitMs);
    await this.clock.sleep(waitMs, signal);
  }

  /** The platform's last word on each key's budget (for the `intrabot_rate_budget_remaining` metric). */
  lastObserved(key: string): { limit: number; remaining: number; resetAtMs: number | undefined } | undefined {
    return this.observed.get(key);
  }

  observe(key: string, budget: RateBudget | undefined): void {
    this.endProbe(key, budget !== undefined);
    if (!budget) return;
    if (budget.remaining !== undefined)
      this.observed.set(key, { limit: budget.limit ?? this.limitOf(key), remaining: budget.remaining, resetAtMs: budget.resetAtMs });
    if (budget.limit !== undefined && budget.limit > 0) this.limits.set(key, budget.limit);
    if (budget.remaining === undefined) return;
    const window = pacedWindow(this.limitOf(key), this.pacing);
    const resetAtMs = budget.resetAtMs === undefined ? undefined : budget.resetAtMs + this.pacing.marginMs;
    this.record(key, {
      ...window,
      remaining: Math.min(window.limit, budget.remaining),
      ...(resetAtMs === undefined ? {} : { resetAtMs }),
      // every replica paces under the platform's limit from the first answer any of them got
      ...(budget.limit !== undefined && budget.limit > 0 ? { platformLimit: Math.floor(budget.limit) } : {}),
    });
  }

  backoff(key: string, untilMs: number): void {
    this.blockedUntil.set(key, Math.max(this.blockedUntil.get(key) ?? 0, untilMs));
    // the whole budget counts as spent until then, for the other replicas too
    this.record(key, { ...pacedWindow(this.limitOf(key), this.pacing), remaining: 0, resetAtMs: untilMs });
  }

  private startProbe(key: string): void {
    let resolve = (): void => undefined;
    const done = new Promise<void>((r) => (resolve = r));
    this.probes.set(key, { done, resolve });
  }

  /** An answer (with or without rate headers) settles what we assume; no answer lets the next request probe. */
  private endProbe(key: string, answered: boolean): void {
    if (answered) this.known.add(key);
    const probe = this.probes.get(key);
    if (!probe) return;
    this.probes.delete(key);
    probe.resolve();
  }

  /** Resolves once every observation made so far is in the store, where the other replicas see it. */
  async flushed(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private record(key: string, observation: Parameters<SharedRateBudget['observe']>[1]): void {
    const write = this.rate.observe(key, observation).catch(this.onError);
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}

function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}
