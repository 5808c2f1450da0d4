/** Where and how dates are shown: the tenant's IANA zone and BCP 47 locale. */
export interface LocaleSettings {
  timezone: string;
  locale: string;
}

export type DateStyle = 'short' | 'medium' | 'long' | 'full';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const STYLES: readonly DateStyle[] = ['short', 'medium', 'long', 'full'];

interface Moment {
  date: Date;
  /** A calendar day (`1990-05-17`): shown as that day everywhere, never shifted by a zone. */
  dateOnly: boolean;
}

/** Reads an ISO string, a `Date` or epoch milliseconds; `undefined` when it is none of them. */
export function toMoment(value: unknown): Moment | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : { date: value, dateOnly: false };
  if (typeof value === 'number' && Number.isFinite(value)) return { date: new Date(value), dateOnly: false };
  if (typeof value !== 'string') return undefined;
  const day = DATE_ONLY.exec(value);
  if (day) return { date: new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))), dateOnly: true };
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : { date: parsed, dateOnly: false };
}

export function toStyle(value: unknown, fallback: DateStyle): DateStyle {
  return STYLES.includes(value as DateStyle) ? (value as DateStyle) : fallback;
}

/**
 * A day in the tenant's zone and locale; something that is not a date is shown as it came, so a
 * post still goes out.
 *
 * @example formatDate('2026-11-20T23:30:00Z', 'long', { timezone: 'Europe/Berlin', locale: 'en-GB' }) // => '21 November 2026'
 */
export function formatDate(value: unknown, style: DateStyle, settings: LocaleSettings): string {
  const moment = toMoment(value);
  if (!moment) return value == null ? '' : String(value);
  const timeZone = moment.dateOnly ? 'UTC' : settings.timezone;
  return new Intl.DateTimeFormat(settings.locale, { dateStyle: style, timeZone }).format(moment.date);
}

/** A day and time of day in the tenant's zone and locale; a bare date is shown as a date. */
export function formatDatetime(value: unknown, style: DateStyle, settings: LocaleSettings): string {
  const moment = toMoment(value);
  if (!moment) return value == null ? '' : String(value);
  if (moment.dateOnly) return formatDate(value, style, settings);
  return new Intl.DateTimeFormat(settings.locale, { dateStyle: style, timeStyle: 'short', timeZone: settings.timezone }).format(moment.date);
}
