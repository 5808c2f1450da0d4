import { ApiError, ApiNetworkError, ApiRateLimitedError, ApiTimeoutError, ApiValidationError, UncertainWriteError } from '../api/errors';
import { IntrabotError, InvalidInputError } from '../errors';

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
