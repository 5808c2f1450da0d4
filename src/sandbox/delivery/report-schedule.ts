import { isoDate, offsetMinutes } from '../time';

/** spec: Outgoing reports — "every day at 07:00 CET", weekly "every Monday at 07:00 CET"; CET as Berlin keeps it. */
export const REPORT_TIME_ZONE = 'Europe/Berlin';
export const REPORT_HOUR = 7;

export type ReportSchedule = 'daily' | 'weekly';

/** `hour:00` on `date` (YYYY-MM-DD) in the zone, as epoch ms (correct across DST changes). */
export function zonedHour(date: string, hour: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - offsetMinutes(guess, timeZone) * 60_000;
  return guess - offsetMinutes(first, timeZone) * 60_000;
}

/** The date `days` after `date`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** 0 for Sunday ... 1 for Monday, of a YYYY-MM-DD date. */
function weekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/**
 * The latest scheduled slot at or before `nowMs`: today's 07:00 in Berlin (or yesterday's, before
 * 07:00); for weekly, the latest Monday's.
 *
 * @example latestReportSlot(Date.parse('2026-11-23T06:30:00Z'), 'daily') // 2026-11-23T07:00+01:00 = 06:00Z
 */
export function latestReportSlot(nowMs: number, schedule: ReportSchedule, timeZone = REPORT_TIME_ZONE): number {
  let date = isoDate(nowMs, timeZone);
  if (zonedHour(date, REPORT_HOUR, timeZone) > nowMs) date = addDays(date, -1);
  if (schedule === 'weekly') date = addDays(date, -((weekday(date) + 6) % 7));
  return zonedHour(date, REPORT_HOUR, timeZone);
}
