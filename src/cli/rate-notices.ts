import { describeRateNotice, type OnRateNotice } from '../api/rate-notice';
import type { CliIo } from './output';

/** Waits shorter than this are told at most once per this long (an outbox's sends are spaced a second apart). */
const QUIET_MS = 10_000;

/**
 * Where a command tells its user about pacing (issue #15: never silent for more than a second): every
 * clamped header, every wait of 10 s or more, and shorter waits at most once per 10 s, on stderr so a
 * command's output stays clean.
 *
 * @example new ApiClient({ ...target, clock, onRateNotice: rateNoticePrinter(io, 'intrabot api') });
 */
export function rateNoticePrinter(io: Pick<CliIo, 'stderr'>, prefix: string, now: () => number = Date.now): OnRateNotice {
  let lastTold = -Infinity;
  return (notice) => {
    if (notice.kind === 'waiting' && notice.waitMs < QUIET_MS && now() - lastTold < QUIET_MS) return;
    lastTold = now();
    io.stderr(`${prefix}: ${describeRateNotice(notice)}\n`);
  };
}
