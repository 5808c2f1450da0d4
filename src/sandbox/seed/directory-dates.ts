import { isoDate } from '../time';

const DAY_MS = 86_400_000;

/** `2026-11-22` → `11-22` */
export function monthDay(date: string): string {
  return date.slice(5, 10);
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The calendar date `days` days before `nowMs`, in the zone. */
export function daysAgo(nowMs: number, days: number, timeZone: string): string {
  return isoDate(nowMs - days * DAY_MS, timeZone);
}

/**
 * The same month-day `years` years before `today`. Feb 29 exists only in leap years, so for a leap
 * `today` the caller should pass a multiple of 4; otherwise this answers Feb 28.
 */
export function yearsBefore(today: string, years: number): string {
  const year = Number(today.slice(0, 4)) - years;
  const md = monthDay(today);
  const safe = md === '02-29' && !isLeapYear(year) ? '02-28' : md;
  return `${String(year).padStart(4, '0')}-${safe}`;
}

/**
 * A fixed date that must not fall on today's month-day (so that exactly the users meant to have a
 * birthday or anniversary today have one): a colliding day moves by one within its month.
 */
export function avoidMonthDay(date: string, todayMd: string): string {
  if (monthDay(date) !== todayMd) return date;
  const day = Number(date.slice(8, 10));
  const moved = day < 28 ? day + 1 : day - 1;
  return `${date.slice(0, 8)}${String(moved).padStart(2, '0')}`;
}

/** A deterministic valid date in `year` from an index (days 1..28 exist in every month). */
export function dateFromIndex(year: number, index: number): string {
  const month = ((index * 5) % 12) + 1;
  const day = ((index * 7) % 28) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
