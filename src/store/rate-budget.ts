import { z } from 'zod';

export const RateKeySchema = z.string().min(1);

export const RateWindowSchema = z.object({
  limit: z.number().int().positive(),
  windowMs: z.number().int().positive(),
  /**
   * At least this long between two grants: sends spread evenly instead of a window's worth at once. A take
   * with spacing reserves the next free slot (up to a window ahead) and answers how long until it comes,
   * so replicas queue for slots instead of racing for each one.
   */
  spacingMs: z.number().int().nonnegative().optional(),
  /**
   * With `spacingMs`: grants go back to back while the window holds fewer than this (a quiet budget
   * answers a short flurry at once), and `spacingMs` apart once it holds this many. Per take: a take
   * without it (default 1) is always `spacingMs` after the latest grant of any take on the key, even on
   * a quiet budget (the outbox's sends); takes with a burst beside it never make the window hold more
   * than `limit`.
   */
  burst: z.number().int().positive().optional(),
});
export type RateWindow = z.infer<typeof RateWindowSchema>;

export const RateObservationSchema = RateWindowSchema.extend({
  /** `X-RateLimit-Remaining` as the platform reported it. */
  remaining: z.number().int().nonnegative(),
  /** When the platform's window resets (from `X-RateLimit-Reset` or `Retry-After`), ms on the store's clock. */
  resetAtMs: z.number().optional(),
  /**
   * `X-RateLimit-Limit` as the platform reported it: remembered for the key, so every replica takes under
   * it (the lower of it and the take's own limit), even one that has not had an answer of its own yet.
   */
  platformLimit: z.number().int().positive().optional(),
});
export type RateObservation = z.infer<typeof RateObservationSchema>;

export interface RateDecision {
  ok: boolean;
  /**
   * Not ok: how long until a take can succeed. Ok: how long until the slot granted (0: now; later only
   * with `spacingMs`): the request is sent once it has passed.
   */
  waitMs: number;
}

/**
 * A shared budget of requests: a sliding-window log per key (a token, an incoming webhook). `take` grants
 * at most `limit` within any `windowMs`-long stretch of time, whichever window the platform counts in,
 * and, with `spacingMs`, no two grants closer than that once `burst` are in the window, across every
 * replica sharing the store (spec: Limits, "60 requests per minute per token"). It answers the API
 * client's question "may I send now?" and, when not, how long to wait (or, with spacing, which slot
 * is reserved).
 *
 * @example
 * const d = await store.rate.take(`token:${tenant}`, { limit: 60, windowMs: 60_000, spacingMs: 1_000 });
 * await clock.sleep(d.waitMs); // ok: until the reserved slot; not ok: then take again
 */
export interface SharedRateBudget {
  take(key: string, window: RateWindow): Promise<RateDecision>;
  /**
   * Align the budget with the platform's `X-RateLimit-*` headers: when the platform counts more requests
   * spent than we did (another client shares the token, or a 429 came), the difference is recorded as
   * spent, expiring when the platform's window resets. Never gives budget back.
   */
  observe(key: string, observation: RateObservation): Promise<void>;
}

/**
 * Where observed-but-unrecorded requests are put in the log: at `resetAt - windowMs`, so that they leave
 * the sliding window exactly when the platform's own window resets; clamped to the current window.
 */
export function phantomStamp(nowMs: number, observation: RateObservation): number {
  const reset = observation.resetAtMs ?? nowMs + observation.windowMs;
  return Math.min(nowMs, Math.max(nowMs - observation.windowMs + 1, reset - observation.windowMs));
}

/** How long the platform's limit, once reported, is remembered for a key. */
export const PLATFORM_LIMIT_TTL_MS = 24 * 60 * 60_000;

/**
 * The window a take is decided under: the lower of its limit and the platform's remembered one, and,
 * when spreading, the spacing and burst that lower limit comes to.
 *
 * @example effectiveWindow({ limit: 60, windowMs: 60_000, spacingMs: 1_000, burst: 30 }, 20) // { limit: 20, windowMs: 60_000, spacingMs: 3_000, burst: 10 }
 */
export function effectiveWindow(window: RateWindow, platformLimit: number | undefined): RateWindow {
  if (platformLimit === undefined || platformLimit >= window.limit) return window;
  const spacing = window.spacingMs === undefined ? {} : { spacingMs: Math.max(window.spacingMs, Math.ceil(window.windowMs / platformLimit)) };
  const burst = window.burst === undefined ? {} : { burst: Math.max(1, Math.floor((window.burst * platformLimit) / window.limit)) };
  return { ...window, limit: platformLimit, ...spacing, ...burst };
}

/**
 * The earliest slot for one more grant, given the stamps of the log since `now - windowMs` (reserved
 * slots ahead included): once the window holds fewer than `limit` (the oldest relevant stamp has left),
 * and, once it holds `burst` or more, `spacingMs` after the latest grant. Pure; both stores apply the
 * same rule.
 */
export function nextSlot(stamps: readonly number[], window: RateWindow, nowMs: number): number {
  const sorted = [...stamps].sort((a, b) => a - b);
  let slot = nowMs;
  const last = sorted.at(-1);
  if (window.spacingMs && last !== undefined && sorted.length >= (window.burst ?? 1)) slot = Math.max(slot, last + window.spacingMs);
  if (sorted.length >= window.limit) slot = Math.max(slot, (sorted[sorted.length - window.limit] ?? nowMs) + window.windowMs);
  return slot;
}

/**
 * The answer to a take (pure; both stores apply the same rule). Without spacing: now, or how long until
 * the window has room. With spacing: the next slot is reserved when it is at most a window ahead
 * (`slot` says when; the store records it), else how long until it is.
 */
export function decideTake(stamps: readonly number[], window: RateWindow, nowMs: number): RateDecision & { slot?: number } {
  const slot = nextSlot(stamps, window, nowMs);
  if (slot <= nowMs) return { ok: true, waitMs: 0, slot: nowMs };
  if (!window.spacingMs) return { ok: false, waitMs: Math.max(1, slot - nowMs) };
  if (slot - nowMs > window.windowMs) return { ok: false, waitMs: Math.max(1, slot - nowMs - window.windowMs) };
  return { ok: true, waitMs: slot - nowMs, slot };
}

/**
 * Of a key's log, the stamps that still count: grants of the last `windowMs`, and slots reserved ahead,
 * which are never more than a window ahead. A stamp further ahead was written before the clock was
 * moved back: kept, it would hold the budget shut until the clock caught up with it. Both stores trim
 * their logs by this rule.
 */
export function liveStamps(stamps: readonly number[], windowMs: number, nowMs: number): number[] {
  return stamps.filter((s) => s > nowMs - windowMs && s <= nowMs + windowMs);
}

/** Of the log, the grants that have gone out by now (reserved slots ahead are not spent yet). */
export function spentBy(stamps: readonly number[], nowMs: number): number {
  return stamps.filter((s) => s <= nowMs).length;
}

/** How many requests the platform says were spent that our log does not hold. */
export function missingSpend(observation: RateObservation, recorded: number): number {
  const spent = Math.max(0, observation.limit - observation.remaining);
  return Math.max(0, spent - recorded);
}
