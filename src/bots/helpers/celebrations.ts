import { z } from 'zod';

/**
 * Who celebrates on a given day: birthdays from `date_of_birth`, work anniversaries from
 * `hired_at` (spec: User). Pure: the caller gives the day, already read in the tenant's zone.
 */

/** Where a February 29 falls in a common year: the day before (Feb 28) or the day after (Mar 1). */
export const LeapDayRuleSchema = z.enum(['feb28', 'mar1'], { error: 'leap_day must be feb28 or mar1' });
export type LeapDayRule = z.infer<typeof LeapDayRuleSchema>;

/** Which anniversaries count: a list of years (`[1, 5, 10]`), or `every` year. */
export const AnniversaryYearsSchema = z.union([
  z.literal('every'),
  z.array(z.int().positive({ error: 'years must be positive whole numbers' })).min(1, { error: 'years needs at least one number' }),
]);
export type AnniversaryYears = z.infer<typeof AnniversaryYearsSchema>;

/** The fields celebrations read; a synced directory entry or a user from the API both fit. */
export interface CelebrationPerson {
  id: number;
  date_of_birth: string | null;
  hired_at: string | null;
  is_away: boolean;
  /** Group ids the person belongs to. */
  group_ids: readonly number[];
}

export interface CelebrationFilter {
  /** Only people in at least one of these groups; everyone when absent or empty. */
  groups?: readonly number[] | undefined;
  /** Leave out people who are away today. */
  skipAway?: boolean | undefined;
  leapDay?: LeapDayRule | undefined;
}

export interface Anniversary<P> {
  person: P;
  /** Completed years since the hire date. */
  years: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `YYYY-MM-DD` → `[year, 'MM-DD']`, or undefined for anything else. */
function splitDate(date: string | null): [number, string] | undefined {
  const match = date === null ? null : ISO_DATE.exec(date.slice(0, 10));
  return match ? [Number(match[1]), `${match[2]}-${match[3]}`] : undefined;
}

/**
 * The month-day on which a date recurs in `year`: itself, except Feb 29 in a common year, which
 * moves to Feb 28 or Mar 1 by `rule`.
 *
 * @example recurringMonthDay('02-29', 2027, 'mar1') // => '03-01'
 */
export function recurringMonthDay(monthDay: string, year: number, rule: LeapDayRule): string {
  if (monthDay !== '02-29' || isLeapYear(year)) return monthDay;
  return rule === 'mar1' ? '03-01' : '02-28';
}

/** Whether `person` passes the group and away filters. */
export function passesFilter(person: CelebrationPerson, filter: CelebrationFilter): boolean {
  if (filter.skipAway && person.is_away) return false;
  const groups = filter.groups ?? [];
  return groups.length === 0 || person.group_ids.some((id) => groups.includes(id));
}

/**
 * The people whose birthday is `date` (`YYYY-MM-DD` in the tenant's zone), filtered.
 *
 * @example birthdaysOn(users, '2027-02-28', { leapDay: 'feb28' }) // includes someone born 1992-02-29
 */
export function birthdaysOn<P extends CelebrationPerson>(people: readonly P[], date: string, filter: CelebrationFilter = {}): P[] {
  const today = splitDate(date);
  if (!today) throw new RangeError(`birthdaysOn: expected a YYYY-MM-DD date, got "${date}"`);
  const [year, monthDay] = today;
  return people.filter((person) => {
    const born = splitDate(person.date_of_birth);
    return born !== undefined && recurringMonthDay(born[1], year, filter.leapDay ?? 'feb28') === monthDay && passesFilter(person, filter);
  });
}

/**
 * The people whose work anniversary is `date`, with the years completed, when those years are
 * among `years`. A hire on Feb 29 recurs by the same leap-day rule as a birthday; the hire day
 * itself (0 years) is no anniversary.
 *
 * @example anniversariesOn(users, '2026-11-22', { years: [1, 5, 10] }) // => [{ person, years: 5 }]
 */
export function anniversariesOn<P extends CelebrationPerson>(
  people: readonly P[],
  date: string,
  options: CelebrationFilter & { years: AnniversaryYears },
): Anniversary<P>[] {
  const today = splitDate(date);
  if (!today) throw new RangeError(`anniversariesOn: expected a YYYY-MM-DD date, got "${date}"`);
  const [year, monthDay] = today;
  const out: Anniversary<P>[] = [];
  for (const person of people) {
    const hired = splitDate(person.hired_at);
    if (!hired || recurringMonthDay(hired[1], year, options.leapDay ?? 'feb28') !== monthDay) continue;
    const years = year - hired[0];
    if (years < 1 || (options.years !== 'every' && !options.years.includes(years))) continue;
    if (passesFilter(person, options)) out.push({ person, years });
  }
  return out;
}

// the one "which day is it there" of the package; `ctx.today()` and `ctx.dateOf()` use it too
export { localDate } from '../../clock/local-date';
