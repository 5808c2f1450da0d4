import { latestSlot, latestSlots, MAX_SLOT_SCAN, slotsBetween } from './slots';

/**
 * A slot that passed less than this long before start is tried even without `catch_up`: a replica
 * starting just as a slot fires must not call it missed (the claim keeps it to one run anyway).
 */
export const START_GRACE_MS = 5_000;

export interface CatchUpInput {
  cron: string;
  timezone: string;
  catchUpMs?: number | undefined;
  /** The latest instant up to which some replica handled this schedule; undefined on first start. */
  seenMs: number | undefined;
  nowMs: number;
}

export interface CatchUpPlan {
  /** The missed slot to run now, if the latest one is within the window. */
  run?: number;
  /** Missed slots that will not run, the latest of them, and whether the count stopped at the scan cap. */
  skipped: number;
  latestSkipped?: number;
  capped: boolean;
}

/**
 * What to do at start about slots missed while no replica ran: only the most recent missed slot may
 * run, once, and only when it is at most `catchUpMs` old; every other missed slot is skipped.
 * Slots considered are `seen < s < now` (a slot exactly at "now" is the next regular slot).
 *
 * @example
 * planCatchUp({ cron: '0 9 * * *', timezone: 'UTC', catchUpMs: 3_600_000, seenMs: mon0800, nowMs: wed0930 })
 * // => { run: wed0900, skipped: 1, latestSkipped: tue0900, capped: false }
 */
export function planCatchUp(input: CatchUpInput): CatchUpPlan {
  if (input.seenMs === undefined) return { skipped: 0, capped: false };
  const span = latestSlots(input.cron, input.timezone, input.seenMs, input.nowMs - 1);
  if (span.latest === undefined) return { skipped: 0, capped: false };
  const window = Math.max(input.catchUpMs ?? 0, START_GRACE_MS);
  if (input.nowMs - span.latest > window) return { skipped: span.count, latestSkipped: span.latest, capped: span.capped };
  const plan: CatchUpPlan = { run: span.latest, skipped: span.count - 1, capped: span.capped };
  if (span.previous !== undefined) plan.latestSkipped = span.previous;
  return plan;
}

export interface DueSlots {
  /** Slots to claim and run, oldest first. */
  run: number[];
  /** Slots that came due but are too old to run: how many (at least, when capped), and the latest. */
  late: { count: number; latest?: number; capped: boolean };
}

/**
 * The slots that came due since `fromMs` when a timer fires: usually one, more when the clock was
 * advanced or the process stalled. The latest always runs (the clock reached it); older ones run when
 * they are at most `START_GRACE_MS` old and are skipped otherwise. A clock jump is not downtime, so
 * `catch_up` does not apply.
 *
 * @example
 * dueSlots('0 * * * *', 'UTC', t0730, t1020) // => { run: [t1000], late: { count: 2, latest: t0900, capped: false } }
 */
export function dueSlots(cron: string, timezone: string, fromMs: number, nowMs: number): DueSlots {
  let run = slotsBetween(cron, timezone, Math.max(fromMs, nowMs - START_GRACE_MS - 1), nowMs, MAX_SLOT_SCAN);
  if (run.length === 0) {
    const latest = latestSlot(cron, timezone, fromMs, nowMs);
    run = latest === undefined ? [] : [latest];
  }
  const first = run[0];
  if (first === undefined) return { run, late: { count: 0, capped: false } };
  const span = latestSlots(cron, timezone, fromMs, first - 1);
  const late: DueSlots['late'] = { count: span.count, capped: span.capped };
  if (span.latest !== undefined) late.latest = span.latest;
  return { run, late };
}
