import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors';
import { latestSlot, latestSlots, nextSlot, slotKey, slotsBetween } from '../../src/scheduler/slots';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
const isos = (list: number[]): string[] => list.map((ms) => new Date(ms).toISOString());
const BERLIN = 'Europe/Berlin';

describe('nextSlot', () => {
  it('returns the first slot strictly after the given instant', () => {
    expect(iso(nextSlot('0 9 * * *', 'UTC', at('2026-01-01T08:59:59.999Z')))).toBe('2026-01-01T09:00:00.000Z');
    expect(iso(nextSlot('0 9 * * *', 'UTC', at('2026-01-01T09:00:00.000Z')))).toBe('2026-01-02T09:00:00.000Z');
  });

  it('reads wall-clock times in the schedule time zone (09:00 Berlin is 08:00Z in winter, 07:00Z in summer)', () => {
    expect(iso(nextSlot('0 9 * * *', BERLIN, at('2026-01-15T00:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
    expect(iso(nextSlot('0 9 * * *', BERLIN, at('2026-07-15T00:00:00Z')))).toBe('2026-07-15T07:00:00.000Z');
    expect(iso(nextSlot('0 9 * * *', 'America/New_York', at('2026-01-15T00:00:00Z')))).toBe('2026-01-15T14:00:00.000Z');
  });

  it('runs 0 9 * * MON on Mondays only, across the spring change', () => {
    const slots = slotsBetween('0 9 * * MON', BERLIN, at('2026-03-20T00:00:00Z'), at('2026-04-07T00:00:00Z'), 10);
    expect(isos(slots)).toEqual(['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z', '2026-04-06T07:00:00.000Z']);
  });

  it('skips months without the day and takes L as the last day of each month', () => {
    expect(isos(slotsBetween('0 0 31 * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-06-01T00:00:00Z'), 10))).toEqual([
      '2026-01-31T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ]);
    expect(isos(slotsBetween('0 0 L * *', 'UTC', at('2028-01-01T00:00:00Z'), at('2028-04-01T00:00:00Z'), 10))).toEqual([
      '2028-01-31T00:00:00.000Z',
      '2028-02-29T00:00:00.000Z',
      '2028-03-31T00:00:00.000Z',
    ]);
  });

  it('supports a seconds field (6-field expressions)', () => {
    expect(isos(slotsBetween('* * * * * *', 'UTC', at('2026-01-01T00:00:00.500Z'), at('2026-01-01T00:00:03Z'), 10))).toEqual([
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:03.000Z',
    ]);
  });

  it('names the cron field when the expression or zone cannot be read', () => {
    expect(() => nextSlot('not a cron', 'UTC', 0)).toThrow(InvalidInputError);
    try {
      nextSlot('61 * * * *', 'UTC', 0);
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidInputError).field).toBe('cron');
    }
  });
});

describe('daylight-saving changes in Europe/Berlin', () => {
  // 2026-03-29: 02:00 CET jumps to 03:00 CEST. 2026-10-25: 03:00 CEST falls back to 02:00 CET.
  it('moves a slot that does not exist on the spring-forward day forward by the gap (02:30 runs at 03:30 CEST), once', () => {
    const slots = slotsBetween('30 2 * * *', BERLIN, at('2026-03-27T12:00:00Z'), at('2026-03-31T12:00:00Z'), 10);
    expect(isos(slots)).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:30:00.000Z', // 03:30 CEST: 02:30 does not exist
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('gives an hourly schedule no extra run in the missing hour', () => {
    const slots = slotsBetween('30 * * * *', BERLIN, at('2026-03-28T23:00:00Z'), at('2026-03-29T02:45:00Z'), 10);
    expect(isos(slots)).toEqual(['2026-03-28T23:30:00.000Z', '2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-29T02:30:00.000Z']);
  });

  it('runs a fixed-hour slot in the repeated autumn hour once, at its first (CEST) occurrence', () => {
    const slots = slotsBetween('30 2 * * *', BERLIN, at('2026-10-23T12:00:00Z'), at('2026-10-26T12:00:00Z'), 10);
    expect(isos(slots)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 02:30 CEST; 02:30 CET (01:30Z) does not run again
      '2026-10-26T01:30:00.000Z',
    ]);
    const quarterly = slotsBetween('*/15 2 * * *', BERLIN, at('2026-10-24T12:00:00Z'), at('2026-10-25T12:00:00Z'), 10);
    expect(quarterly).toHaveLength(4);
  });

  it('keeps an every-hour schedule running in both passes of the repeated hour', () => {
    const slots = slotsBetween('30 * * * *', BERLIN, at('2026-10-24T23:00:00Z'), at('2026-10-25T02:45:00Z'), 10);
    expect(isos(slots)).toEqual(['2026-10-24T23:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00.000Z']);
  });
});

describe('slotsBetween and latestSlots', () => {
  it('includes the end and excludes the start, and stops at the limit', () => {
    const from = at('2026-01-01T09:00:00Z');
    const to = at('2026-01-01T12:00:00Z');
    expect(isos(slotsBetween('0 * * * *', 'UTC', from, to, 10))).toEqual(['2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z', '2026-01-01T12:00:00.000Z']);
    expect(slotsBetween('0 * * * *', 'UTC', from, to, 2)).toHaveLength(2);
    expect(slotsBetween('0 * * * *', 'UTC', to, from, 10)).toEqual([]);
  });

  it('reports the latest slot, the one before and the count', () => {
    const span = latestSlots('0 * * * *', 'UTC', at('2026-01-01T09:00:00Z'), at('2026-01-01T12:30:00Z'));
    expect({ latest: iso(span.latest), previous: iso(span.previous), count: span.count, capped: span.capped }).toEqual({
      latest: '2026-01-01T12:00:00.000Z',
      previous: '2026-01-01T11:00:00.000Z',
      count: 3,
      capped: false,
    });
  });
});

describe('slotKey', () => {
  it('names tenant, bot, job and the slot in UTC', () => {
    expect(slotKey('acme', 'kudos', 'digest', at('2026-03-23T08:00:00Z'))).toBe('cron:acme:kudos:digest:2026-03-23T08:00:00.000Z');
    expect(slotKey('acme', 'kudos', 'digest', 1)).not.toBe(slotKey('acme', 'kudos', 'digest', 2));
  });
});

describe('latestSlot', () => {
  it('finds the latest slot of a range by searching backwards, for sparse and dense expressions', () => {
    expect(iso(latestSlot('0 9 * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-01-07T10:00:00Z')))).toBe('2026-01-07T09:00:00.000Z');
    expect(iso(latestSlot('0 0 1 1 *', 'UTC', at('2020-06-01T00:00:00Z'), at('2026-06-01T00:00:00Z')))).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(latestSlot('* * * * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-03-01T00:00:00.500Z')))).toBe('2026-03-01T00:00:00.000Z');
    expect(latestSlot('0 9 * * *', 'UTC', at('2026-01-07T09:00:00Z'), at('2026-01-07T10:00:00Z'))).toBeUndefined();
  });
});
