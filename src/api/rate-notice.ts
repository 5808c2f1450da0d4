import type { FarRateHeader } from './rate-headers';

/**
 * What the API client tells its user about pacing, so a command is never silent while it waits
 * (issue #15): a wait for rate budget longer than `RATE_WAIT_NOTICE_MS`, and a rate header that asked
 * for more than the window (clamped; told once per client, with the value received).
 */
export type RateNotice = { kind: 'waiting'; waitMs: number; why: 'budget' | 'rate_limited' } | ({ kind: 'clamped'; boundMs: number } & FarRateHeader);

export type OnRateNotice = (notice: RateNotice) => void;

/** Waits shorter than this are pacing as usual, not news. */
export const RATE_WAIT_NOTICE_MS = 1_000;

/**
 * One line for a person.
 *
 * @example describeRateNotice({ kind: 'waiting', waitMs: 12_300, why: 'budget' }) // 'waiting 13 s for rate budget (the platform allows so many requests a minute)'
 */
export function describeRateNotice(notice: RateNotice): string {
  if (notice.kind === 'waiting') {
    const s = Math.ceil(notice.waitMs / 1000);
    return notice.why === 'budget'
      ? `waiting ${s} s for rate budget (the platform allows so many requests a minute)`
      : `rate limited by the platform (429): trying again in ${s} s`;
  }
  const ahead = Math.round(notice.aheadMs / 1000);
  return `the platform's ${notice.header === 'retry-after' ? 'Retry-After' : 'X-RateLimit-Reset'} (${notice.received}) asks for a wait of ${ahead} s, beyond its ${notice.boundMs / 1000} s rate window: waiting ${notice.boundMs / 1000} s at most (is the platform's clock, or this machine's, wrong?)`;
}
