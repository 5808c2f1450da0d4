import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import type { RateBudget } from './rate-headers';
import { RATE_WAIT_NOTICE_MS } from './rate-notice';

/**
 * Pacing under the platform's budget (spec: Limits: 60 requests per minute per token, per
 * incoming webhook). The client asks before every request and reports every outcome, so a
 * request the headers say would get a 429 is never sent. Implementations are per key; the
 * in-memory one serves a single process, a store-backed one (same interface) shares the budget
 * across replicas.
 */
export interface RateLimiter {
  /** Waits until one more request may be sent under `key`, and reserves it. */
  acquire(key: string, signal?: AbortSignal, options?: AcquireOptions): Promise<void>;
  /**
   * Reports the outcome of one acquired request: the budget its answer announced (`{}` for an
   * answer without rate headers), or undefined when no answer came.
   */
  observe(key: string, budget: RateBudget | undefined): void;
  /** Nothing may be sent under `key` before `untilMs` (a 429's `Retry-After`). */
  backoff(key: string, untilMs: number): void;
}

/**
 * How one request is paced. `spread`: at least one spacing ((window + margin) / limit) after the key's
 * latest request, even when the budget has been quiet: the outbox's sends, so that a storm after a quiet
 * minute goes out evenly instead of half a minute's worth at once (DESIGN.md Targets, pacing). `burst`
 * (the default): a quiet budget may answer a short flurry back to back (provisioning at start-up, a
 * handler's reads, the proxy). Either way no window holds more than the limit. A limiter that does not
 * spread at all (`MemoryRateLimiter`) treats both alike.
 */
export const PaceSchema = z.enum(['spread', 'burst']);
export type Pace = z.infer<typeof PaceSchema>;

export interface AcquireOptions {
  pace?: Pace;
}

/**
 * The limiter key of a token: a short hash, so the token itself is never held as a key (keys may
 * end up in a shared store, metrics or logs).
 */
export function rateLimitKey(secret: string): string {
  return `rl:${createHash('sha256').update(secret).digest('hex').slice(0, 24)}`;
}

export interface MemoryRateLimiterOptions {
  clock: Clock;
  /** Assumed before the first response says otherwise (spec: Limits: 60 per minute). */
  defaultLimit?: number;
  windowMs?: number;
  /** Waits past a reset by this much, because the platform rounds its reset to whole seconds. */
  resetMarginMs?: number;
  /** Told before a wait of a second or more for budget, with its length (a command shows it). */
  onWait?: (waitMs: number) => void;
}

interface Window {
  /** False until an answer came: until then one probe at a time learns the budget. */
  known: boolean;
  wakers: Set<() => void>;
  limit: number;
  remaining: number;
  resetAtMs: number;
  inFlight: number;
  blockedUntilMs: number;
}

/** Two resets further apart than this describe different windows (headers carry whole seconds). */
const SAME_WINDOW_TOLERANCE_MS = 1_500;

/**
 * In-memory limiter on the injected clock. Before any answer it knows nothing (another process may
 * have spent part of the budget), so it sends one request and holds the others until that answer
 * tells. Each acquire spends one unit of the local estimate at once, so concurrent callers cannot
 * all pass on `remaining: 1`; answers correct the estimate, counting requests still in flight as
 * already spent. An answer without headers leaves the default of 60 per minute in force.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly clock: Clock;
  private readonly defaultLimit: number;
  private readonly windowMs: number;
  private readonly marginMs: number;
  private readonly onWait: ((waitMs: number) => void) | undefined;
  private readonly windows = new Map<string, Window>();

  constructor(options: MemoryRateLimiterOptions) {
    this.clock = options.clock;
    this.defaultLimit = options.defaultLimit ?? 60;
    this.windowMs = options.windowMs ?? 60_000;
    this.marginMs = options.resetMarginMs ?? 250;
    this.onWait = options.onWait;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const window = this.current(key);
      if (!window.known && window.inFlight > 0) {
        await nextObservation(window, signal);
        continue;
      }
      const wait = this.waitFor(window);
      if (wait <= 0) {
        window.remaining -= 1;
        window.inFlight += 1;
        return;
      }
      if (wait >= RATE_WAIT_NOTICE_MS) this.onWait?.(wait);
      await this.clock.sleep(wait, signal);
    }
  }

  observe(key: string, budget: RateBudget | undefined): void {
    const window = this.current(key);
    window.inFlight = Math.max(0, window.inFlight - 1);
    for (const wake of window.wakers) wake();
    window.wakers.clear();
    if (!budget) return;
    window.known = true;
    const resetAtMs = budget.resetAtMs === undefined ? undefined : budget.resetAtMs + this.marginMs;
    if (budget.limit !== undefined && budget.limit > 0) window.limit = budget.limit;
    if (budget.remaining !== undefined) {
      // requests still in flight may not have been counted by the platform yet: count them as spent
      const platformView = Math.max(0, budget.remaining - window.inFlight);
      const newWindow = resetAtMs !== undefined && Math.abs(resetAtMs - window.resetAtMs) > SAME_WINDOW_TOLERANCE_MS;
      window.remaining = newWindow ? platformView : Math.min(window.remaining, platformView);
    }
    if (resetAtMs !== undefined) window.resetAtMs = resetAtMs;
  }

  backoff(key: string, untilMs: number): void {
    const window = this.current(key);
    window.blockedUntilMs = Math.max(window.blockedUntilMs, untilMs);
    window.remaining = 0;
    // the platform said when it takes requests again: that is when this window ends
    window.resetAtMs = untilMs;
  }

  /** The window of `key`, rolled over when its reset has passed. */
  private current(key: string): Window {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window) {
      window = {
        known: false,
        wakers: new Set(),
        limit: this.defaultLimit,
        remaining: this.defaultLimit,
        resetAtMs: now + this.windowMs,
        inFlight: 0,
        blockedUntilMs: 0,
      };
      this.windows.set(key, window);
    } else if ((now >= window.resetAtMs && now >= window.blockedUntilMs) || this.clockMovedBack(window, now)) {
      window.remaining = window.limit;
      window.resetAtMs = now + this.windowMs;
      window.blockedUntilMs = 0;
    }
    return window;
  }

  /**
   * A reset or a block further ahead than one window can be (waits are bounded by the window: see
   * rate-notice.ts) was set before the clock was moved back: kept, it would hold every request until the
   * clock caught up with it.
   */
  private clockMovedBack(window: Window, now: number): boolean {
    const bound = now + this.windowMs + this.marginMs + SAME_WINDOW_TOLERANCE_MS;
    return window.resetAtMs > bound || window.blockedUntilMs > bound;
  }

  private waitFor(window: Window): number {
    const now = this.clock.now();
    if (window.blockedUntilMs > now) return window.blockedUntilMs - now;
    if (window.remaining > 0) return 0;
    return Math.max(1, window.resetAtMs - now);
  }
}

/** Resolves at the next `observe` of the window (a probe's answer), or rejects when aborted. */
function nextObservation(window: Window, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      window.wakers.delete(wake);
      reject(signal?.reason);
    };
    const wake = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    window.wakers.add(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
