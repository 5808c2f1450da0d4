import type { Clock } from '../clock';
import { ApiError, ApiNetworkError, ApiRateLimitedError, ApiServerError, ApiTimeoutError, UncertainWriteError } from './errors';

/**
 * Retries with jittered exponential backoff, bounded in attempts and in total time, waiting on the
 * injected clock. What is retried depends on whether repeating the request is safe:
 * - a 429 was not processed, so any request is retried after `Retry-After`;
 * - GET, PUT, PATCH and DELETE are idempotent: retried on 5xx, network faults and timeouts;
 * - a POST is retried on a network fault only when it surely never left (connection refused,
 *   connect timeout); a 5xx or a fault after sending becomes an `UncertainWriteError`, because
 *   repeating it could create a duplicate. POSTs that are idempotent by the spec (awards: an
 *   identical row returns the existing award) can be marked `repeatable`.
 */
export interface RetryPolicy {
  /** Total attempts, the first included; 1 means a single attempt. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry is started once this much time would have passed since the first attempt. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 20_000, maxTotalMs: 120_000 };

/**
 * The wait before retry number `attempt` (1-based): half the exponential ceiling fixed, half
 * random, so that many clients failing together do not come back together.
 *
 * @example backoffDelay(3, { baseDelayMs: 500, maxDelayMs: 20_000 }, () => 0.5) // 1500
 */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * The backoff after a 429 that named no wait (no `Retry-After`, no usable `X-RateLimit-Reset`): 1 s
 * doubling per 429 in a row, capped at the platform's one-minute window (spec: Limits), after which the
 * budget has surely been renewed.
 */
export const RATE_LIMIT_BACKOFF: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = { baseDelayMs: 1_000, maxDelayMs: 60_000 };

/**
 * The wait after the `streak`-th 429 in a row that named no wait of its own: exponential, jittered, capped.
 *
 * @example rateLimitedDelay(3, () => 0) // 2000
 */
export function rateLimitedDelay(streak: number, random: () => number): number {
  return backoffDelay(Math.max(1, streak), RATE_LIMIT_BACKOFF, random);
}

export type RetryDecision = { kind: 'retry'; afterMs?: number | undefined } | { kind: 'fail'; error: unknown };

export interface RetrySafety {
  method: string;
  /** A POST that may be repeated without harm. */
  repeatable: boolean;
}

/** Whether a failure is worth another attempt, or the error to throw (an uncertain write, wrapped). */
export function decideRetry(error: unknown, safety: RetrySafety): RetryDecision {
  if (error instanceof ApiRateLimitedError) return { kind: 'retry', afterMs: error.retryAfterMs };
  const transient = error instanceof ApiServerError || error instanceof ApiNetworkError || error instanceof ApiTimeoutError;
  if (!transient) return { kind: 'fail', error };
  if (safety.method !== 'POST' || safety.repeatable) {
    return { kind: 'retry', afterMs: error instanceof ApiServerError ? error.retryAfterMs : undefined };
  }
  if (!(error instanceof ApiServerError) && !error.requestSent) return { kind: 'retry' };
  // any 5xx, even a 503, may come from a gateway after the application acted: we cannot know
  return { kind: 'fail', error: uncertain(error) };
}

function uncertain(error: ApiError): UncertainWriteError {
  return new UncertainWriteError({ method: error.method, path: error.path, status: error.platformStatus }, error);
}

export interface RetryEvent {
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface WithRetryOptions {
  policy: RetryPolicy;
  clock: Clock;
  decide: (error: unknown) => RetryDecision;
  random?: () => number;
  signal?: AbortSignal | undefined;
  onRetry?: (event: RetryEvent) => void;
}

/** Runs `attempt` until it succeeds, the decision says fail, or the policy's bounds are reached. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: WithRetryOptions): Promise<T> {
  const { policy, clock } = options;
  const random = options.random ?? Math.random;
  const started = clock.now();
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      const decision = options.decide(error);
      if (decision.kind === 'fail') throw decision.error;
      if (n >= policy.attempts) throw error;
      const delayMs = decision.afterMs ?? backoffDelay(n, policy, random);
      if (clock.now() - started + delayMs > policy.maxTotalMs) throw error;
      options.onRetry?.({ attempt: n, delayMs, error });
      await clock.sleep(delayMs, options.signal);
    }
  }
}
