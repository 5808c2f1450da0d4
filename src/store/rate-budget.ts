import { z } from 'zod';

export const RateKeySchema = z.string().min(1);

export const RateWindowSchema = z.object({
  limit: z.number().int().positive(),
  windowMs: z.number().int().positive(),
});
export type RateWindow = z.infer<typeof RateWindowSchema>;

export const RateObservationSchema = RateWindowSchema.extend({
  /** `X-RateLimit-Remaining` as the platform reported it. */
  remaining: z.number().int().nonnegative(),
  /** When the platform's window resets (from `X-RateLimit-Reset` or `Retry-After`), ms on the store's clock. */
  resetAtMs: z.number().optional(),
});
export type RateObservation = z.infer<typeof RateObservationSchema>;

export interface RateDecision {
  ok: boolean;
  /** When not ok: how long until a take can succeed (0 when ok). */
  waitMs: number;
}

/**
 * A shared budget of requests: a sliding-window log per key (a token, an incoming webhook). `take` grants
 * at most `limit` within any `windowMs`-long stretch of time, whichever window the platform counts in,
 * across every replica sharing the store (spec: Limits, "60 requests per minute per token"). It answers
 * the API client's question "may I send now?" and, when not, how long to wait.
 *
 * @example
 * const d = await store.rate.take(`token:${tenant}`, { limit: 60, windowMs: 60_000 });
 * if (!d.ok) await clock.sleep(d.waitMs);
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

/** How many requests the platform says were spent that our log does not hold. */
export function missingSpend(observation: RateObservation, recorded: number): number {
  const spent = Math.max(0, observation.limit - observation.remaining);
  return Math.max(0, spent - recorded);
}
