/**
 * Dates as the platform writes them (spec: Resources and their fields): datetimes are ISO 8601 with
 * the offset of the customer's time zone, dates are `YYYY-MM-DD` read in that zone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than formatting (seeding formats thousands of dates). */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

function parts(ms: number, timeZone: string): Record<string, string> {
  const fmt = formatterFor(timeZone);
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** The zone's offset from UTC at `ms`, in minutes (Europe/Berlin in winter: 60). */
export function offsetMinutes(ms: number, timeZone: string): number {
  return offsetOf(parts(ms, timeZone), ms);
}

/** The offset that the zone's wall-clock `p` at `ms` shows: how far it is from UTC, in minutes. */
function offsetOf(p: Record<string, string>, ms: number): number {
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** `2026-11-22T16:15:22+01:00` */
export function isoDateTime(ms: number, timeZone: string): string {
  // one formatting for the fields and the offset both: a list of 50 users formats some 250 datetimes
  const p = parts(ms, timeZone);
  const off = offsetOf(p, ms);
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${hh}:${mm}`;
}

/** `2026-11-22`, the calendar day in the zone. */
export function isoDate(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Midnight of `date` (YYYY-MM-DD) in the zone, as epoch ms. */
export function zonedMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // two passes settle DST edges: the offset at the guess, then at the corrected instant
  const first = guess - offsetMinutes(guess, timeZone) * 60_000;
  return guess - offsetMinutes(first, timeZone) * 60_000;
}

/** Parses an ISO date or datetime to epoch ms; a bare date is midnight in the zone. NaN when invalid. */
export function parseIso(value: string, timeZone: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return zonedMidnight(value, timeZone);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return Number.NaN;
  return Date.parse(value);
}

/**
 * The first instant after `ms` at which the zone's clocks show `hhmm` (`08:00`): today's if still ahead,
 * else tomorrow's. On a day the zone changes its offset the time is read with that day's offset at it.
 */
export function nextTimeOfDay(ms: number, hhmm: string, timeZone: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
  const at = (date: string): number => {
    const midnight = zonedMidnight(date, timeZone);
    const guess = midnight + (hours * 60 + minutes) * 60_000;
    return guess - (offsetMinutes(guess, timeZone) - offsetMinutes(midnight, timeZone)) * 60_000;
  };
  const today = at(isoDate(ms, timeZone));
  return today > ms ? today : at(isoDate(zonedMidnight(isoDate(ms, timeZone), timeZone) + 36 * 3_600_000, timeZone));
}
