import { describe, expect, it } from 'vitest';
import { inWorkingHours } from './working-hours';

const weekdays = { days: ['MON', 'TUE', 'WED', 'THU', 'FRI'] as ('MON' | 'TUE' | 'WED' | 'THU' | 'FRI')[], from: '09:00', to: '17:00' };

describe('inWorkingHours', () => {
  it('holds from `from` (inclusive) to `to` (exclusive) on the working days', () => {
    // Monday 1 June 2026, Berlin is UTC+2
    expect(inWorkingHours(Date.parse('2026-06-01T06:59:00Z'), 'Europe/Berlin', weekdays)).toBe(false);
    expect(inWorkingHours(Date.parse('2026-06-01T07:00:00Z'), 'Europe/Berlin', weekdays)).toBe(true);
    expect(inWorkingHours(Date.parse('2026-06-01T14:59:00Z'), 'Europe/Berlin', weekdays)).toBe(true);
    expect(inWorkingHours(Date.parse('2026-06-01T15:00:00Z'), 'Europe/Berlin', weekdays)).toBe(false);
  });

  it('leaves out the days not listed', () => {
    expect(inWorkingHours(Date.parse('2026-06-06T10:00:00Z'), 'Europe/Berlin', weekdays)).toBe(false); // Saturday
    expect(inWorkingHours(Date.parse('2026-06-06T10:00:00Z'), 'Europe/Berlin', { ...weekdays, days: ['SAT'] })).toBe(true);
  });

  it("reads the day and the time on the tenant's wall clock, daylight saving included", () => {
    // 23:30 UTC on Friday is already Saturday in Berlin; 08:30 UTC is 09:30 in winter, 10:30 in summer
    expect(inWorkingHours(Date.parse('2026-06-05T23:30:00Z'), 'America/New_York', { ...weekdays, from: '09:00', to: '23:59' })).toBe(true);
    expect(inWorkingHours(Date.parse('2026-06-05T23:30:00Z'), 'Europe/Berlin', { ...weekdays, from: '00:00', to: '23:59' })).toBe(false);
    expect(inWorkingHours(Date.parse('2026-01-05T08:30:00Z'), 'Europe/Berlin', { ...weekdays, from: '09:00', to: '10:00' })).toBe(true);
    expect(inWorkingHours(Date.parse('2026-06-01T08:30:00Z'), 'Europe/Berlin', { ...weekdays, from: '09:00', to: '10:00' })).toBe(false);
  });
});
