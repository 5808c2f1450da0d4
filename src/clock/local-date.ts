/**
 * The calendar date of an instant in a time zone, `YYYY-MM-DD`: the one place "which day is it
 * there" is computed (`ctx.today()`, `ctx.dateOf()`, the celebration helpers). The string sorts and
 * compares as a date, and is what the platform's `date` fields take (spec: Award, `awarded_at`).
 *
 * @example localDate(Date.UTC(2026, 11, 31, 23, 30), 'Europe/Berlin') // => '2027-01-01'
 */
export function localDate(instant: number | string | Date, timeZone: string): string {
  const ms = typeof instant === 'number' ? instant : typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`localDate: not an instant: ${String(instant)}`);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(ms);
  const get = (type: string): string => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
