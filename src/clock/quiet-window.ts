/**
 * A quiet window on the wall clock of a time zone: every day from `from` to `to` (minutes after
 * midnight; a window past midnight, 19:00 to 08:00, wraps), and with `weekends` all of Saturday and
 * Sunday as well.
 */
export interface QuietWindow {
  fromMinute: number;
  toMinute: number;
  weekends: boolean;
}

const STEP_MS = 15 * 60_000;
const MINUTE_MS = 60_000;
/** The longest quiet stretch looked through: a weekend joined to two nights, and a margin. */
const MAX_STEPS = 4 * 24 * 4;

/** `'19:30'` as minutes after midnight; undefined for anything else. */
export function minuteOfDay(text: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Whether an instant falls in the window, on the wall clock of `timeZone`. */
export function isQuiet(ms: number, timeZone: string, window: QuietWindow): boolean {
  const { weekday, minute } = wallClock(ms, timeZone);
  if (window.weekends && (weekday === 'Sat' || weekday === 'Sun')) return true;
  const { fromMinute: from, toMinute: to } = window;
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * When the quiet stretch `ms` falls in ends (the first minute outside the window, on the zone's wall
 * clock, daylight-saving changes included), or undefined when `ms` is not quiet.
 *
 * @example quietUntil(Date.UTC(2026, 5, 1, 20, 0), 'Europe/Berlin', { fromMinute: 19 * 60, toMinute: 8 * 60, weekends: false })
 * // => Date.UTC(2026, 5, 2, 6, 0): 08:00 in Berlin the next morning
 */
export function quietUntil(ms: number, timeZone: string, window: QuietWindow): number | undefined {
  if (!isQuiet(ms, timeZone, window)) return undefined;
  // quarter-hour steps to a time past the stretch, then minute steps back to its first minute
  let after = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  for (let steps = 0; isQuiet(after, timeZone, window); steps++) {
    if (steps > MAX_STEPS) return undefined;
    after += STEP_MS;
  }
  while (after - MINUTE_MS > ms && !isQuiet(after - MINUTE_MS, timeZone, window)) after -= MINUTE_MS;
  return after;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string): { weekday: string; minute: number } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(ms);
  const get = (type: string): string => parts.find((part) => part.type === type)?.value ?? '';
  return { weekday: get('weekday'), minute: Number(get('hour')) * 60 + Number(get('minute')) };
}
