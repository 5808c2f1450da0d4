import type { Pace } from './rate-limiter';
import type { RateWindow } from '../store/rate-budget';

/**
 * The budgets the outbox paces under (spec: Limits: 60 requests per minute per token, and per
 * incoming webhook). Each budget is a key in `store.rate` (a token's key is a hash of the token, an
 * incoming webhook's a hash of its path: see `rateLimitKey`), so every replica sharing the store
 * draws from the same budget.
 */
export interface PacingOptions {
  /** Requests per window assumed until the platform's `X-RateLimit-Limit` says otherwise. */
  defaultLimit: number;
  /** The platform's window. */
  windowMs: number;
  /**
   * Added to the window: a request is stamped when it is granted and counted by the platform when it
   * arrives, a little later and not always equally late; without the margin two requests a window apart
   * could land in one window. A second: arrival times may vary that much before a window overfills.
   */
  marginMs: number;
  /**
   * Spread sends evenly, one every (window + margin) / limit, instead of a window's worth at once. The
   * platform does not say whether its window is fixed or sliding (spec: Limits): spread, a steady load
   * keeps every 60-second stretch, wherever it starts, under the limit, with room for arrival jitter up
   * to the margin. The log caps any window at the limit whatever happens.
   */
  spread: boolean;
  /**
   * The share of the limit that may go out back to back while the window is quiet, before spreading
   * starts, for requests paced `burst` (the runtime's own calls: start-up provisioning, or a command's
   * few reads, are not held back a second each). Four fifths: a fresh start with the fifteen example
   * bots makes about 40 calls (a bot user, an endpoint and its secret each), which at half the limit
   * waited ten seconds on the budget; the fifth kept back lets the first sends after a start go at once.
   * The outbox's sends are paced `spread` and never burst: a storm after a quiet minute is spread from
   * its first send.
   */
  burstShare: number;
}

export const DEFAULT_PACING: PacingOptions = { defaultLimit: 60, windowMs: 60_000, marginMs: 1_000, spread: true, burstShare: 0.8 };

/**
 * The window `store.rate` enforces for one request under a budget of `limit` requests: a `spread`
 * request (the outbox's) takes no burst, so it is always at least `spacingMs` after the key's latest
 * grant, whatever the others took.
 *
 * @example pacedWindow(60, DEFAULT_PACING) // { limit: 60, windowMs: 61_000, spacingMs: 1_017, burst: 48 }
 * @example pacedWindow(60, DEFAULT_PACING, 'spread') // { limit: 60, windowMs: 61_000, spacingMs: 1_017 }
 */
export function pacedWindow(limit: number, options: PacingOptions, pace: Pace = 'burst'): RateWindow {
  const whole = Math.max(1, Math.floor(limit));
  const windowMs = options.windowMs + options.marginMs;
  if (!options.spread) return { limit: whole, windowMs };
  const spacingMs = Math.ceil(windowMs / whole);
  if (pace === 'spread') return { limit: whole, windowMs, spacingMs };
  return { limit: whole, windowMs, spacingMs, burst: Math.max(1, Math.floor(whole * options.burstShare)) };
}

/**
 * How many messages a budget of `limit` per window lets through within `spanMs`: `limit` per window
 * (spread over it). Coalescing starts when a target holds more than this.
 *
 * @example messagesWithin(60, 60_000, 60_000) // 60
 * @example messagesWithin(60, 60_000, 120_000) // 120
 */
export function messagesWithin(limit: number, windowMs: number, spanMs: number): number {
  return Math.max(1, Math.floor(limit * Math.max(1, Math.floor(spanMs / windowMs))));
}
