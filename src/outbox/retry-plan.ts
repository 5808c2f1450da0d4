import { ApiError, ApiNetworkError, ApiRateLimitedError, ApiTimeoutError, ApiValidationError, UncertainWriteError } from '../api/errors';
import { IntrabotError, InvalidInputError } from '../errors';

/*
 * The retry plan of an outbox entry, pure: what a failed attempt means (classifyFailure) and when to try
 * again (retryDelayMs, planRetry).
 */

/**
 * What a failed attempt means for the entry:
 * - `dead`: the platform refused it (a 4xx other than 429) or it can never be sent: the dead letters;
 * - `rate`: a 429: not processed, try again once `Retry-After` has passed;
 * - `uncertain`: the write may have arrived (timeout or 5xx after sending): reconcile before resending;
 * - `transient`: not sent or not processed (5xx on a read, network fault before sending): back off.
 */
export type FailureKind = 'dead' | 'rate' | 'uncertain' | 'transient';

export interface Failure {
  kind: FailureKind;
  /** For the queue's `lastError` / dead-letter reason: the platform's message, never a secret. */
  message: string;
  /** From `Retry-After`, when the platform gave one. */
  retryAfterMs?: number | undefined;
  /** The request surely did not create anything. */
  certainlyNotSent: boolean;
}

export function classifyFailure(error: unknown): Failure {
  const failure = classify(error);
  // the code first: `intrabot outbox` shows it, and it is what an operator searches for
  return error instanceof IntrabotError && failure.kind !== 'dead' ? { ...failure, message: `${error.code}: ${failure.message}` } : failure;
}

function classify(error: unknown): Failure {
  if (error instanceof ApiRateLimitedError) return { kind: 'rate', message: error.message, retryAfterMs: error.retryAfterMs, certainlyNotSent: true };
  if (error instanceof UncertainWriteError) return { kind: 'uncertain', message: error.message, certainlyNotSent: false };
  if (error instanceof ApiValidationError) {
    const field = error.field ? ` (field ${error.field})` : '';
    return { kind: 'dead', message: `422 ${error.platformMessage}${field}`, certainlyNotSent: true };
  }
  if (error instanceof ApiError && isRefusal(error.platformStatus)) return { kind: 'dead', message: error.message, certainlyNotSent: true };
  if (error instanceof InvalidInputError) return { kind: 'dead', message: error.message, certainlyNotSent: true };
  if (error instanceof ApiNetworkError || error instanceof ApiTimeoutError) {
    return { kind: 'transient', message: error.message, certainlyNotSent: !error.requestSent };
  }
  if (error instanceof IntrabotError) return { kind: 'transient', message: error.message, certainlyNotSent: false };
  // an unexpected throw: kept for retry (the deadline bounds it), never shown with a stack
  return { kind: 'transient', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), certainlyNotSent: false };
}

function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 429 && status !== 408;
}

/**
 * When to try an entry again (pure: attempts, "now" and the random draw are parameters).
 * Full jitter over an exponential ceiling, so a fleet of entries that failed together (the platform
 * was down) does not come back together; a `Retry-After` is a floor, never shortened.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * The delay before attempt `attempt + 1`, for an entry tried `attempt` times (1-based).
 * Between half and all of `min(maxMs, baseMs * 2^(attempt-1))`, and never below `floorMs`.
 *
 * @example backoffMs(1, DEFAULT_BACKOFF, 0) // 500
 * @example backoffMs(3, DEFAULT_BACKOFF, 1) // 4000
 */
export function backoffMs(attempt: number, policy: BackoffPolicy, random: number, floorMs = 0): number {
  const exponent = Math.min(30, Math.max(0, attempt - 1));
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  const jittered = Math.round(ceiling / 2 + (ceiling / 2) * Math.min(1, Math.max(0, random)));
  return Math.max(floorMs, jittered);
}

/** spec: Limits — the platform's rate window: its budget has surely been renewed once it passed. */
export const RATE_WINDOW_MS = 60_000;

/**
 * The delay after a 429 that named no wait (no `Retry-After`, no usable `X-RateLimit-Reset`): the same
 * jittered exponential backoff, capped at one rate window rather than `maxMs`.
 *
 * @example rateLimitedBackoffMs(10, DEFAULT_BACKOFF, 1) // 60000
 */
export function rateLimitedBackoffMs(attempt: number, policy: BackoffPolicy, random: number): number {
  return backoffMs(attempt, { ...policy, maxMs: Math.min(policy.maxMs, RATE_WINDOW_MS) }, random);
}

export interface RetryDelayInput {
  failure: Pick<Failure, 'kind' | 'retryAfterMs'>;
  /** How often the entry has been tried (1-based). */
  attempts: number;
  /** The least wait (the reconcile delay of an uncertain create). */
  floorMs: number;
  policy: BackoffPolicy;
  random: () => number;
}

/**
 * A 429's wait as the outbox obeys it: at most one rate window. A `Retry-After` (or reset) further away
 * says a clock is wrong, not that the budget is gone for half an hour (issue #15); the sender logs the
 * value it received once.
 *
 * @example boundedRateWait(1_860_000) // 60000
 */
export function boundedRateWait(retryAfterMs: number): number {
  return Math.min(retryAfterMs, RATE_WINDOW_MS);
}

/**
 * How long a failed entry waits before its next attempt. A 429 waits out its `Retry-After` (spec:
 * Limits: never earlier, a little jitter after; at most one window: `boundedRateWait`), or backs off
 * per attempt up to one window when it named no wait; anything else backs off exponentially from
 * `floorMs`.
 */
export function retryDelayMs(input: RetryDelayInput): number {
  const { failure, attempts, policy, random } = input;
  if (failure.kind !== 'rate') return backoffMs(attempts, policy, random(), input.floorMs);
  const after = failure.retryAfterMs === undefined ? undefined : boundedRateWait(failure.retryAfterMs);
  if (after !== undefined) return after + Math.round(random() * Math.min(1_000, after / 10));
  return rateLimitedBackoffMs(attempts, policy, random());
}

export type RetryPlan = { kind: 'retry'; atMs: number } | { kind: 'expired' };

/** Retry at `now + delay` when that is still before the deadline; otherwise the entry has run out of time. */
export function planRetry(nowMs: number, delayMs: number, deadlineAtMs: number): RetryPlan {
  const atMs = nowMs + delayMs;
  return atMs > deadlineAtMs ? { kind: 'expired' } : { kind: 'retry', atMs };
}
