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

/** The budget announced by `X-RateLimit-Limit/Remaining/Reset`, or undefined when none is there. */
export function parseRateBudget(headers: HeaderBag, nowMs: number): RateBudget | undefined {
  const limit = nonNegativeNumber(header(headers, 'x-ratelimit-limit'));
  const remaining = nonNegativeNumber(header(headers, 'x-ratelimit-remaining'));
  const resetAtMs = parseReset(header(headers, 'x-ratelimit-reset'), nowMs);
  if (limit === undefined && remaining === undefined && resetAtMs === undefined) return undefined;
  return { limit, remaining, resetAtMs };
}

/** The `Retry-After` of a response, in ms. */
export function retryAfterFromHeaders(headers: HeaderBag, nowMs: number): number | undefined {
  return parseRetryAfter(header(headers, 'retry-after'), nowMs);
}

/** A reset further away than this is no rate window's (spec: Limits: the window is a minute): not used. */
const MAX_USABLE_RESET_MS = 10 * 60_000;

/**
 * How long a 429 asks us to wait: its `Retry-After` (spec: Limits), or else the time until its
 * `X-RateLimit-Reset` when that lies ahead, within ten minutes. Undefined when it says neither: the
 * caller backs off exponentially (`rateLimitedDelay`), never retrying at once.
 *
 * @example rateLimitedWaitFromHeaders({ 'x-ratelimit-reset': '30' }, 0) // 30_000
 */
export function rateLimitedWaitFromHeaders(headers: HeaderBag, nowMs: number): number | undefined {
  const retryAfter = retryAfterFromHeaders(headers, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const resetAtMs = parseReset(header(headers, 'x-ratelimit-reset'), nowMs);
  if (resetAtMs === undefined || resetAtMs <= nowMs || resetAtMs - nowMs > MAX_USABLE_RESET_MS) return undefined;
  return resetAtMs - nowMs;
}
