import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIcs, UnparsableDocumentError, zonedToUtc } from '../../../src/bots/helpers';

// the calendar example bot's fixtures (their README cites RFC 5545)
const fixture = (name: string) => readFileSync(new URL(`../../../bots/calendar/fixtures/${name}`, import.meta.url), 'utf8');
const team = fixture('team.ics');
const BERLIN = 'Europe/Berlin';

describe('parseIcs: recurring events, exceptions and time zones', () => {
  it('expands a weekly RRULE, leaves out its EXDATE and puts the RECURRENCE-ID override in place of its instance', () => {
    const { events } = parseIcs(team, { from: '2026-03-01T00:00:00Z', to: '2026-05-31T00:00:00Z', timezone: BERLIN });
    const planning = events.filter((e) => e.uid === 'weekly-planning@acme.example');
    expect(planning.map((e) => e.start)).toEqual([
      '2026-03-17T09:00:00.000Z',
      '2026-03-24T09:00:00.000Z',
      // Berlin went to summer time on 29 March: 10:00 there is 08:00 UTC now
      '2026-03-31T08:00:00.000Z',
      // 7 April is an EXDATE; 14 April moved to 14:00 by its override
      '2026-04-14T12:00:00.000Z',
      '2026-04-21T08:00:00.000Z',
      '2026-04-28T08:00:00.000Z',
      '2026-05-05T08:00:00.000Z',
    ]);
    const moved = planning[3]!;
    expect(moved).toMatchObject({
      key: 'weekly-planning@acme.example@2026-04-14T08:00:00.000Z',
      recurrenceId: '2026-04-14T08:00:00.000Z',
      summary: 'Weekly planning (moved to the afternoon)',
      end: '2026-04-14T12:30:00.000Z',
      timezone: BERLIN,
    });
    expect(planning[0]).toMatchObject({
      summary: 'Weekly planning',
      description: 'Sprint board review, then priorities for the week.\nAgenda: https://wiki.acme.example/planning',
      location: 'Room Ada / video call',
      status: 'confirmed',
      allDay: false,
    });
  });

  it('answers a cancelled event with status cancelled', () => {
    const { events } = parseIcs(team, { from: '2026-03-26T00:00:00Z', to: '2026-03-27T00:00:00Z', timezone: BERLIN });
    expect(events).toEqual([expect.objectContaining({ key: 'release-review-4-2@acme.example', status: 'cancelled', start: '2026-03-26T14:00:00.000Z' })]);
  });

  it("reads a TZID the file has no VTIMEZONE for in Node's zone database, and all-day dates in the given zone", () => {
    const { events } = parseIcs(team, { from: '2026-03-25T00:00:00Z', to: '2026-04-02T00:00:00Z', timezone: BERLIN });
    // New York is on summer time from 8 March: 09:00 there is 13:00 UTC
    expect(events.find((e) => e.uid.startsWith('us-sync'))).toMatchObject({ start: '2026-03-25T13:00:00.000Z', timezone: 'America/New_York' });
    expect(events.find((e) => e.uid.startsWith('offsite'))).toMatchObject({
      allDay: true,
      startDate: '2026-03-30',
      // DTEND is exclusive: the offsite is 30 and 31 March
      endDate: '2026-03-31',
      start: '2026-03-29T22:00:00.000Z',
      end: '2026-03-31T22:00:00.000Z',
    });
  });

  it('answers only what overlaps the window, by start, and the calendar name', () => {
    const oncall = parseIcs(fixture('oncall.ics'), { from: '2026-12-03T08:00:00Z', to: '2026-12-03T08:00:01Z', timezone: BERLIN });
    expect(oncall.name).toBe('Platform on-call');
    expect(oncall.events.map((e) => e.summary)).toEqual(['On call: Ana Lima']);
  });

  it('refuses what is not iCalendar', () => {
    expect(() => parseIcs('hello', { from: 0, to: 1 })).toThrow(UnparsableDocumentError);
    expect(() => parseIcs('BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n', { from: 0, to: 1 })).toThrow(/not a VCALENDAR/);
  });
});

describe('zonedToUtc', () => {
  it('reads a wall-clock time in a zone on either side of a DST change', () => {
    expect(zonedToUtc({ year: 2026, month: 3, day: 28, hour: 10, minute: 0, second: 0 }, BERLIN)).toBe(Date.parse('2026-03-28T09:00:00Z'));
    expect(zonedToUtc({ year: 2026, month: 3, day: 29, hour: 10, minute: 0, second: 0 }, BERLIN)).toBe(Date.parse('2026-03-29T08:00:00Z'));
    // 02:30 does not exist that night: read as 03:30 summer time; 02:30 on 25 October exists twice: the first
    expect(zonedToUtc({ year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0 }, BERLIN)).toBe(Date.parse('2026-03-29T01:30:00Z'));
    expect(zonedToUtc({ year: 2026, month: 10, day: 25, hour: 2, minute: 30, second: 0 }, BERLIN)).toBe(Date.parse('2026-10-25T00:30:00Z'));
  });
});
