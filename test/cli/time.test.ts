import { describe, expect, it } from 'vitest';
import { localTime, tenantTimeZone, utcOffset, zonedTime } from '../../src/cli/time';

describe('cli time stamps', () => {
  const winter = Date.parse('2026-03-23T08:00:00Z');
  const summer = Date.parse('2026-07-01T22:30:05Z');

  it("shows an instant in the given zone with that zone's offset at that instant", () => {
    expect(zonedTime(winter, 'Europe/Berlin')).toBe('2026-03-23 09:00:00 +01:00');
    expect(zonedTime(summer, 'Europe/Berlin')).toBe('2026-07-02 00:30:05 +02:00');
    expect(zonedTime(summer, 'America/New_York')).toBe('2026-07-01 18:30:05 -04:00');
    expect(zonedTime(winter, 'Asia/Kolkata')).toBe('2026-03-23 13:30:00 +05:30');
    expect(zonedTime(winter, 'UTC')).toBe('2026-03-23 08:00:00 +00:00');
  });

  it('shows no time as a dash', () => {
    expect(zonedTime(null, 'UTC')).toBe('-');
    expect(zonedTime(undefined, 'UTC')).toBe('-');
  });

  it('gives the wall-clock time alone for tables that name the zone in a column', () => {
    expect(localTime(winter, 'Europe/Berlin')).toBe('2026-03-23 09:00:00');
    expect(utcOffset(winter, 'Europe/London')).toBe('+00:00');
  });

  it("uses the tenant's configured zone, and UTC for a tenant no longer configured", () => {
    const config = { tenants: [{ id: 'acme', timezone: 'America/New_York' }] } as Parameters<typeof tenantTimeZone>[0];
    expect(tenantTimeZone(config, 'acme')).toBe('America/New_York');
    expect(tenantTimeZone(config, 'gone')).toBe('UTC');
  });
});
