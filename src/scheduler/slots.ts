import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { InvalidInputError } from '../errors';

/**
 * Cron slot arithmetic, pure: every function takes "now" as a parameter (STYLE.md rule 6).
 *
 * A slot is the instant (ms since the epoch) a cron expression names in a time zone. Daylight-saving
 * changes follow what cron users expect, and are vector-tested (test/scheduler/slots.test.ts):
 * - a wall-clock time that does not exist (02:30 in Europe/Berlin on the spring-forward day) runs once,
 *   moved forward by the gap: `30 2 * * *` runs at 03:30 CEST that day; an hourly `30 * * * *` has no
 *   02:30 that day and simply runs at 01:30, 03:30, 04:30...;
 * - a wall-clock time that happens twice (02:00-02:59 on the autumn day) runs once, at its first
 *   occurrence (CEST), for an expression with a fixed hour; an expression whose hour is `*` keeps its
 *   rhythm and runs in both passes of the repeated hour (it means "every hour").
 *
 * Only `next` is used: cron-parser's `prev` disagrees with `next` around DST changes, so "the latest slot
 * up to now" is found by walking forward.
 */

/** Walking forward never goes further than this many slots in one call (a seconds cron over almost three hours). */
export const MAX_SLOT_SCAN = 10_000;

function parse(cron: string, timezone: string, afterMs: number): CronExpression {
  try {
    return CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date(afterMs) });
  } catch (error) {
    // cron-parser reports an unknown zone and a bad expression alike; name both inputs
    throw new InvalidInputError('cron', `cannot read cron "${cron}" in time zone "${timezone}": ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The first slot strictly after `afterMs`; undefined when the expression never fires again.
 *
 * @example
 * nextSlot('0 9 * * MON', 'Europe/Berlin', Date.UTC(2026, 2, 20, 12)) // => Date.UTC(2026, 2, 23, 8): Monday 09:00 CET
 */
export function nextSlot(cron: string, timezone: string, afterMs: number): number | undefined {
  const expression = parse(cron, timezone, afterMs);
  return expression.hasNext() ? expression.next().getTime() : undefined;
}

/**
 * The slots `s` with `fromMs < s <= toMs`, oldest first, at most `limit` of them.
 *
 * @example
 * slotsBetween('0 * * * *', 'UTC', Date.UTC(2026, 0, 1, 9), Date.UTC(2026, 0, 1, 11), 10)
 * // => [10:00Z, 11:00Z]
 */
export function slotsBetween(cron: string, timezone: string, fromMs: number, toMs: number, limit: number): number[] {
  const slots: number[] = [];
  if (toMs <= fromMs || limit <= 0) return slots;
  const expression = parse(cron, timezone, fromMs);
  while (slots.length < limit && expression.hasNext()) {
    const slot = expression.next().getTime();
    if (slot > toMs) break;
    slots.push(slot);
  }
  return slots;
}

/**
 * The latest slot `s` with `fromMs < s <= toMs`. Searched in windows growing backwards from `toMs`
 * (1 s, 8 s, 64 s...), so a seconds cron over a long range costs as little as a yearly one.
 *
 * @example
 * latestSlot('0 9 * * *', 'UTC', Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 7, 10)) // => Date.UTC(2026, 0, 7, 9)
 */
export function latestSlot(cron: string, timezone: string, fromMs: number, toMs: number): number | undefined {
  for (let width = 1_000; ; width *= 8) {
    const start = Math.max(fromMs, toMs - width);
    const found = slotsBetween(cron, timezone, start, toMs, MAX_SLOT_SCAN).at(-1);
    if (found !== undefined || start === fromMs) return found;
  }
}

export interface SlotSpan {
  /** The latest slot of the range, and the one before it. */
  latest?: number;
  previous?: number;
  /** How many slots the range holds, counted up to `MAX_SLOT_SCAN` (`capped` then: "at least"). */
  count: number;
  capped: boolean;
}

/**
 * The latest slots `s` with `fromMs < s <= toMs` and how many there are.
 *
 * @example
 * latestSlots('0 * * * *', 'UTC', Date.UTC(2026, 0, 1, 9), Date.UTC(2026, 0, 1, 12))
 * // => { latest: 12:00Z, previous: 11:00Z, count: 3, capped: false }
 */
export function latestSlots(cron: string, timezone: string, fromMs: number, toMs: number): SlotSpan {
  const count = slotsBetween(cron, timezone, fromMs, toMs, MAX_SLOT_SCAN).length;
  if (count === 0) return { count, capped: false };
  const latest = latestSlot(cron, timezone, fromMs, toMs);
  const previous = latest === undefined ? undefined : latestSlot(cron, timezone, fromMs, latest - 1);
  return {
    ...(latest === undefined ? {} : { latest }),
    ...(previous === undefined ? {} : { previous }),
    count,
    capped: count >= MAX_SLOT_SCAN,
  };
}

/**
 * The claim key of one slot of one job: whoever claims it in the store runs the slot, once across
 * replicas. The slot is written as ISO 8601 (UTC), so keys read well in Redis and sort by time.
 *
 * @example
 * slotKey('acme', 'kudos', 'digest', Date.UTC(2026, 2, 23, 8)) // => 'cron:acme:kudos:digest:2026-03-23T08:00:00.000Z'
 */
export function slotKey(tenant: string, bot: string, job: string, slotMs: number): string {
  return `cron:${tenant}:${bot}:${job}:${new Date(slotMs).toISOString()}`;
}

/** The claim held while a job of an `overlap: skip` schedule runs, on any replica. */
export function runningKey(tenant: string, bot: string, job: string): string {
  return `cron-running:${tenant}:${bot}:${job}`;
}
