import { describe, expect, it } from 'vitest';
import { localDate } from 'intrabot/helpers';
import { eventTiming, MIN_PUBLISH_LEAD_MS } from './event-timing';

const DAY = 86_400_000;
const slot = Date.parse('2026-06-01T08:00:00Z');
/** `ctx.dateOf` of a tenant in that zone. */
const datesIn = (zone: string) => (ms: number) => localDate(ms, zone);

describe('eventTiming', () => {
  it('schedules publication publish_in_advance before the start', () => {
    expect(eventTiming(slot, 7 * DAY, 2 * DAY, datesIn('Europe/Berlin'))).toEqual({ starts_at: '2026-06-08', publish_at: '2026-06-06T08:00:00.000Z' });
  });

  it('publishes at once without an advance', () => {
    expect(eventTiming(slot, 7 * DAY, undefined, datesIn('Europe/Berlin'))).toEqual({ starts_at: '2026-06-08', is_published: true });
  });

  it('publishes at once when publish_at would not be safely in the future (spec: Events, publish_at "future")', () => {
    expect(eventTiming(slot, 2 * DAY, 2 * DAY, datesIn('UTC'))).toEqual({ starts_at: '2026-06-03', is_published: true });
    expect(eventTiming(slot, 2 * DAY, 2 * DAY - MIN_PUBLISH_LEAD_MS, datesIn('UTC'))).toEqual({
      starts_at: '2026-06-03',
      publish_at: new Date(slot + MIN_PUBLISH_LEAD_MS).toISOString(),
    });
  });

  it("reads the start day in the tenant's zone", () => {
    const lateEvening = Date.parse('2026-06-01T22:30:00Z');
    expect(eventTiming(lateEvening, 0, undefined, datesIn('Europe/Berlin')).starts_at).toBe('2026-06-02');
    expect(eventTiming(lateEvening, 0, undefined, datesIn('America/New_York')).starts_at).toBe('2026-06-01');
  });
});
