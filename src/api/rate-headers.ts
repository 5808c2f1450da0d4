/**
 * Reading the platform's rate-limit headers (spec: Limits). Pure: "now" is a parameter.
 */

/** What a response says about the token's budget; each part only when the header was there. */
export interface RateBudget {
  limit?: number | undefined;
  remaining?: number | undefined;
  /** When the window resets, ms since the epoch. */
  resetAtMs?: number | undefined;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/** Values above this are epochs, below it a number of seconds from now (10^9 s is the year 2001). */
const EPOCH_SECONDS_THRESHOLD = 1e9;
const EPOCH_MS_THRESHOLD = 1e12;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

function nonNegativeNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/**
 * `X-RateLimit-Reset` as an absolute time. The spec does not say whether it is an epoch or a
 * number of seconds, so both are accepted: a value above 10^9 is an epoch in seconds (above 10^12,
 * in milliseconds), anything smaller is seconds from now.
 *
 * @example parseReset('30', 1_000) // 31_000
 * @example parseReset('1700000030', 0) // 1_700_000_030_000
 */
export function parseReset(value: string | undefined, nowMs: number): number | undefined {
  const n = nonNegativeNumber(value);
  if (n === undefined) return undefined;
  if (n > EPOCH_MS_THRESHOLD) return n;
  if (n > EPOCH_SECONDS_THRESHOLD) return n * 1000;
  return nowMs + n * 1000;
}

/**
 * `Retry-After` as a delay in ms: seconds (spec: Limits) or an HTTP date (RFC 9110). A date in the
 * past means no wait; an unreadable value gives undefined.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = nonNegativeNumber(value.trim());
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The budget announced by `X-RateLimit-Limit/Remaining/Reset`, or undefined when none is there; a
 * reset further away than the window is taken as the window's end (`RATE_WAIT_BOUND_MS`).
 */
export function parseRateBudget(headers: HeaderBag, nowMs: number): RateBudget | undefined {
  const limit = nonNegativeNumber(header(headers, 'x-ratelimit-limit'));
  const remaining = nonNegativeNumber(header(headers, 'x-ratelimit-remaining'));
  const reset = parseReset(header(headers, 'x-ratelimit-reset'), nowMs);
  const resetAtMs = reset === undefined ? undefined : Math.min(reset, nowMs + RATE_WAIT_BOUND_MS);
  if (limit === undefined && remaining === undefined && resetAtMs === undefined) return undefined;
  return { limit, remaining, resetAtMs };
}

/**
 * The longest wait a rate header can rightly ask for: the platform's window (spec: Limits: 60 requests
 * per minute). A reset or `Retry-After` further away says the platform's clock or ours is wrong (a
 * sandbox whose clock was moved ahead, say), not that the budget is gone for half an hour: it is
 * clamped to this, and the client says so once (`farRateHeader`).
 */
export const RATE_WAIT_BOUND_MS = 60_000;

/**
 * How far past the window a header may lie before it is reported as wrong: a reset in whole seconds
 * rounds up, and two clocks never quite agree, so a reset 60.6 s ahead is an ordinary one (its wait is
 * still clamped to the window, a difference nobody notices).
 */
const REPORT_SLACK_MS = 5_000;

/** The `Retry-After` of a response, in ms, clamped to the window (`RATE_WAIT_BOUND_MS`). */
export function retryAfterFromHeaders(headers: HeaderBag, nowMs: number): number | undefined {
  const wait = parseRetryAfter(header(headers, 'retry-after'), nowMs);
  return wait === undefined ? undefined : Math.min(wait, RATE_WAIT_BOUND_MS);
}

/**
 * How long a 429 asks us to wait: its `Retry-After` (spec: Limits), or else the time until its
 * `X-RateLimit-Reset` when that lies ahead; either clamped to the window. Undefined when it says
 * neither: the caller backs off exponentially (`rateLimitedDelay`), never retrying at once.
 *
 * @example rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': '30' }, 0) // 30_000
 * @example rateLimitedWaitFromHeaders({ 'retry-after': '1800' }, 0) // 60_000
 */
export function rateLimitedWaitFromHeaders(headers: HeaderBag, nowMs: number): number | undefined {
  const retryAfter = retryAfterFromHeaders(headers, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const resetAtMs = parseReset(header(headers, 'x-ratelimit-reset'), nowMs);
  if (resetAtMs === undefined || resetAtMs <= nowMs) return undefined;
  return Math.min(resetAtMs - nowMs, RATE_WAIT_BOUND_MS);
}

/** A rate header asking for a wait beyond the window: which, its value as received, and how far ahead. */
export interface FarRateHeader {
  header: 'x-ratelimit-reset' | 'retry-after';
  received: string;
  aheadMs: number;
}

/**
 * The first rate header of a response that asks for clearly more than `RATE_WAIT_BOUND_MS` (past a few
 * seconds' slack), for the client to report (the wait itself is clamped where the headers are read).
 *
 * @example farRateHeader({ 'retry-after': '1800' }, 0) // { header: 'retry-after', received: '1800', aheadMs: 1_800_000 }
 */
export function farRateHeader(headers: HeaderBag, nowMs: number): FarRateHeader | undefined {
  const retryAfter = header(headers, 'retry-after');
  const wait = parseRetryAfter(retryAfter, nowMs);
  if (retryAfter !== undefined && wait !== undefined && wait > RATE_WAIT_BOUND_MS + REPORT_SLACK_MS)
    return { header: 'retry-after', received: retryAfter, aheadMs: wait };
  const reset = header(headers, 'x-ratelimit-reset');
  const resetAtMs = parseReset(reset, nowMs);
  if (reset !== undefined && resetAtMs !== undefined && resetAtMs - nowMs > RATE_WAIT_BOUND_MS + REPORT_SLACK_MS) {
    return { header: 'x-ratelimit-reset', received: reset, aheadMs: resetAtMs - nowMs };
  }
  return undefined;
}
