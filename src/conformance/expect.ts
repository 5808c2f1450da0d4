import { ApiError } from '../api/errors';
import { ConformanceMismatch } from './check';

/**
 * Assertions of the conformance checks. Each failure is a `ConformanceMismatch` whose message says
 * what the spec wants and what the host answered, so the parity table reads on its own.
 */

/** Throws a mismatch with `message` unless `condition` holds. */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ConformanceMismatch(message);
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (!Object.is(actual, expected)) {
    throw new ConformanceMismatch(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

/** `value` is an integer (meta counts, ids). */
export function expectInteger(value: unknown, what: string): asserts value is number {
  expectThat(typeof value === 'number' && Number.isInteger(value), `${what}: expected an integer, got ${show(value)}`);
}

/** `value` is an absolute http(s) URL (pagination links). */
export function expectAbsoluteUrl(value: unknown, what: string): asserts value is string {
  let ok = false;
  if (typeof value === 'string') {
    try {
      ok = ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      ok = false;
    }
  }
  expectThat(ok, `${what}: expected an absolute URL, got ${show(value)}`);
}

/**
 * Awaits `promise` and answers the error it rejects with, which must be an instance of `type`;
 * a success or another error is a mismatch naming `rule`.
 */
export async function expectRejects<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E, rule: string): Promise<E> {
  let outcome: unknown;
  try {
    await promise;
  } catch (error) {
    outcome = error;
    if (error instanceof type) return error;
  }
  if (outcome === undefined) throw new ConformanceMismatch(`${rule}: expected ${type.name}, but the host accepted the request`);
  throw new ConformanceMismatch(`${rule}: expected ${type.name}, got ${describeError(outcome)}`);
}

/** A short description of any thrown value, for mismatch messages. */
export function describeError(error: unknown): string {
  // an ApiError's message already names the request and the status
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A value as shown in a mismatch message, cut short. */
export function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
