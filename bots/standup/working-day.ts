import { WEEKDAYS, type Absence, type Weekday } from './standup-config';

/** The weekday of a `YYYY-MM-DD` date (a calendar date: no zone is involved). */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] as Weekday;
}

/**
 * Whether `date` has a stand-up: one of the `workdays` and not among the `holidays`.
 *
 * @example
 * isWorkingDay('2026-12-05', { workdays: ['MON', 'TUE', 'WED', 'THU', 'FRI'], holidays: [] }) // false: a Saturday
 */
export function isWorkingDay(date: string, days: { workdays: readonly Weekday[]; holidays: readonly string[] }): boolean {
  return days.workdays.includes(weekdayOf(date)) && !days.holidays.includes(date);
}

/** Who a member is, for matching an absence: by id or by email (any case). */
export interface Member {
  id: number;
  name: string;
  email?: string | undefined;
  is_away?: boolean | undefined;
}

/**
 * Whether `member` is away on `date`: marked away on the platform (spec: User, `is_away`: a flag for
 * now, with no dates) or inside one of the configured absences (both ends included).
 */
export function isAway(member: Member, date: string, absences: readonly Absence[]): boolean {
  if (member.is_away) return true;
  return absences.some((a) => matches(a.user, member) && a.from <= date && date <= (a.to ?? a.from));
}

function matches(user: Absence['user'], member: Member): boolean {
  if (typeof user === 'number' || /^\d+$/.test(user)) return Number(user) === member.id;
  return member.email !== undefined && user.toLowerCase() === member.email.toLowerCase();
}

/** The time of day of an instant in a zone, `HH:MM` (24 hours): `clockTime(Date.UTC(2026, 11, 3, 10), 'Europe/Berlin') // '11:00'`. */
export function clockTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(ms);
}
