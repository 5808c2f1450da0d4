import type { WorkingHours } from './acknowledge-config';

const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `instant` falls in the working hours on the wall clock of `timezone` (daylight saving
 * included): one of `days`, from `from` (inclusive) to `to` (exclusive).
 *
 * @example inWorkingHours(Date.parse('2026-06-01T07:30:00Z'), 'Europe/Berlin', { days: ['MON'], from: '09:00', to: '17:00' }) // => true
 */
export function inWorkingHours(instant: number, timezone: string, hours: WorkingHours): boolean {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    instant,
  );
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('weekday').toUpperCase() as WorkingHours['days'][number];
  const minute = Number(part('hour')) * 60 + Number(part('minute'));
  return hours.days.includes(day) && minute >= minutes(hours.from) && minute < minutes(hours.to);
}
