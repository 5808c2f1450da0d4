import { describe, expect, it } from 'vitest';
import { isQuiet, minuteOfDay, quietUntil, type QuietWindow } from '../../src/clock/quiet-window';

const nights: QuietWindow = { fromMinute: 19 * 60, toMinute: 8 * 60, weekends: false };
const lunch: QuietWindow = { fromMinute: 12 * 60, toMinute: 13 * 60 + 30, weekends: false };
const BERLIN = 'Europe/Berlin';

describe('quiet windows on a time zone’s wall clock', () => {
  it('reads times of day as HH:MM only', () => {
    expect([minuteOfDay('00:00'), minuteOfDay('19:30'), minuteOfDay('23:59')]).toEqual([0, 1170, 1439]);
    expect([minuteOfDay('24:00'), minuteOfDay('7:00'), minuteOfDay('07:60'), minuteOfDay('noon')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('wraps a window past midnight: quiet from its start to the next morning', () => {
    // 20:00 in Berlin (summer, UTC+2) on a Monday
    expect(quietUntil(Date.UTC(2026, 5, 1, 18, 0), BERLIN, nights)).toBe(Date.UTC(2026, 5, 2, 6, 0));
    // 07:59 the next morning: one minute left
    expect(quietUntil(Date.UTC(2026, 5, 2, 5, 59), BERLIN, nights)).toBe(Date.UTC(2026, 5, 2, 6, 0));
    // 08:00 sharp is no longer quiet, nor is the afternoon
    expect(quietUntil(Date.UTC(2026, 5, 2, 6, 0), BERLIN, nights)).toBeUndefined();
    expect(isQuiet(Date.UTC(2026, 5, 2, 14, 0), BERLIN, nights)).toBe(false);
  });

  it('keeps a window within one day to its hours', () => {
    expect(quietUntil(Date.UTC(2026, 5, 2, 10, 15), BERLIN, lunch)).toBe(Date.UTC(2026, 5, 2, 11, 30));
    expect(isQuiet(Date.UTC(2026, 5, 2, 9, 59), BERLIN, lunch)).toBe(false);
  });

  it('holds a whole weekend, from Friday evening to Monday morning, with weekends set', () => {
    const weekend = { ...nights, weekends: true };
    // Friday 5 June 2026, 21:00 in Berlin
    expect(quietUntil(Date.UTC(2026, 5, 5, 19, 0), BERLIN, weekend)).toBe(Date.UTC(2026, 5, 8, 6, 0));
    // Saturday noon is quiet only with weekends set
    expect(isQuiet(Date.UTC(2026, 5, 6, 10, 0), BERLIN, weekend)).toBe(true);
    expect(isQuiet(Date.UTC(2026, 5, 6, 10, 0), BERLIN, nights)).toBe(false);
  });

  it('ends at the wall-clock time across a daylight-saving change', () => {
    // the night of 28 to 29 March 2026: Berlin goes from UTC+1 to UTC+2; 08:00 local is 06:00 UTC
    expect(quietUntil(Date.UTC(2026, 2, 28, 21, 0), BERLIN, nights)).toBe(Date.UTC(2026, 2, 29, 6, 0));
    // and back in October: 08:00 local on 25 October is 07:00 UTC
    expect(quietUntil(Date.UTC(2026, 9, 24, 20, 0), BERLIN, nights)).toBe(Date.UTC(2026, 9, 25, 7, 0));
  });

  it('is never quiet when the window starts where it ends', () => {
    expect(isQuiet(Date.UTC(2026, 5, 2, 3, 0), BERLIN, { fromMinute: 600, toMinute: 600, weekends: false })).toBe(false);
  });
});
