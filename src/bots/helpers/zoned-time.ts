/** A wall-clock time: what a calendar says before a zone makes it an instant. */
export interface WallTime {
  year: number;
  /** 1 to 12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA zone this Node knows (`Europe/Berlin`; not a Windows name such as `W. Europe Standard Time`). */
export function isKnownZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time at `ms` in `timeZone`. */
export function wallTimeAt(ms: number, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const HALF_DAY_MS = 12 * 3_600_000;
const asUtc = (t: WallTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/**
 * The instant a wall-clock time names in `timeZone`. A time that does not exist there (skipped when
 * the clocks go forward) is read with the offset before the change, so 02:30 on the spring-forward
 * night in Berlin is 03:30 CEST; a time that exists twice (the autumn night) is its first.
 *
 * @example zonedToUtc({ year: 2026, month: 3, day: 31, hour: 10, minute: 0, second: 0 }, 'Europe/Berlin') // => Date.parse('2026-03-31T08:00:00Z')
 */
export function zonedToUtc(time: WallTime, timeZone: string): number {
  const wanted = asUtc(time);
  const offsetAt = (ms: number) => asUtc(wallTimeAt(ms, timeZone)) - ms;
  // no zone changes its offset twice within a day: the offsets half a day either side are the candidates
  const before = wanted - offsetAt(wanted - HALF_DAY_MS);
  const after = wanted - offsetAt(wanted + HALF_DAY_MS);
  const exact = [Math.min(before, after), Math.max(before, after)].find((ms) => asUtc(wallTimeAt(ms, timeZone)) === wanted);
  return exact ?? before;
}

/** `YYYY-MM-DD` and `HH:MM` of an instant in `timeZone`: the platform's date and time fields. */
export function localDateTime(ms: number, timeZone: string): { date: string; time: string } {
  const t = wallTimeAt(ms, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${t.year}-${pad(t.month)}-${pad(t.day)}`, time: `${pad(t.hour)}:${pad(t.minute)}` };
}
