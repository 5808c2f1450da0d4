import type { RuntimeConfig } from '../runtime/config/config';

/**
 * How CLI commands show an instant: in the tenant's time zone (the one its schedules and "today"
 * use), as `2026-03-23 09:00:00 +01:00`, so a line read in a terminal in another zone, or a UTC
 * log, still names the instant exactly.
 */

const formats = new Map<string, { local: Intl.DateTimeFormat; offset: Intl.DateTimeFormat }>();

function formatsOf(timeZone: string): { local: Intl.DateTimeFormat; offset: Intl.DateTimeFormat } {
  let found = formats.get(timeZone);
  if (!found) {
    found = {
      // sv-SE writes ISO-like `2026-03-23 09:00:00`
      local: new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }),
      offset: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
    };
    formats.set(timeZone, found);
  }
  return found;
}

/**
 * The wall-clock time in `timeZone`, without the zone: for tables that name the zone in a column.
 *
 * @example localTime(Date.parse('2026-03-23T08:00:00Z'), 'Europe/Berlin') // => '2026-03-23 09:00:00'
 */
export function localTime(ms: number, timeZone: string): string {
  return formatsOf(timeZone).local.format(ms);
}

/**
 * The offset of `timeZone` from UTC at `ms`: `+01:00`, `-05:00`, `+00:00`.
 *
 * @example utcOffset(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Berlin') // => '+02:00'
 */
export function utcOffset(ms: number, timeZone: string): string {
  const name =
    formatsOf(timeZone)
      .offset.formatToParts(ms)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  // `GMT` alone is UTC itself; otherwise `GMT+01:00` (or `GMT+05:30`)
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

/**
 * The time in `timeZone` with its offset, or `-` for no time.
 *
 * @example zonedTime(Date.parse('2026-03-23T08:00:00Z'), 'Europe/Berlin') // => '2026-03-23 09:00:00 +01:00'
 */
export function zonedTime(ms: number | null | undefined, timeZone: string): string {
  if (ms === null || ms === undefined) return '-';
  return `${localTime(ms, timeZone)} ${utcOffset(ms, timeZone)}`;
}

/** The time zone of a configured tenant; UTC for one that is not configured (any more). */
export function tenantTimeZone(config: Pick<RuntimeConfig, 'tenants'>, tenant: string | undefined): string {
  return config.tenants.find((t) => t.id === tenant)?.timezone ?? 'UTC';
}
