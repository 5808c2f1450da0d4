import { describe, expect, it } from 'vitest';
import { anniversariesOn, birthdaysOn, localDate, recurringMonthDay, type CelebrationPerson } from '../../../src/bots/helpers/celebrations';

function person(id: number, fields: Partial<CelebrationPerson> = {}): CelebrationPerson {
  return { id, date_of_birth: null, hired_at: null, is_away: false, group_ids: [], ...fields };
}

const ids = (people: { id: number }[]): number[] => people.map((p) => p.id);

describe('recurringMonthDay', () => {
  it.each([
    ['02-29', 2027, 'feb28', '02-28'],
    ['02-29', 2027, 'mar1', '03-01'],
    ['02-29', 2028, 'mar1', '02-29'],
    ['02-29', 2100, 'mar1', '03-01'], // 2100 is not a leap year
    ['02-29', 2000, 'feb28', '02-29'], // 2000 is
    ['02-28', 2027, 'mar1', '02-28'],
    ['12-31', 2027, 'feb28', '12-31'],
  ] as const)('moves %s in %i under %s to %s', (monthDay, year, rule, expected) => {
    expect(recurringMonthDay(monthDay, year, rule)).toBe(expected);
  });
});

describe('birthdaysOn', () => {
  const leapling = person(1, { date_of_birth: '1992-02-29' });
  const feb28 = person(2, { date_of_birth: '1985-02-28' });
  const mar1 = person(3, { date_of_birth: '1990-03-01' });
  const nobody = person(4);
  const people = [leapling, feb28, mar1, nobody];

  it('celebrates a February 29 birthday on February 28 of a common year by default', () => {
    expect(ids(birthdaysOn(people, '2027-02-28'))).toEqual([1, 2]);
    expect(ids(birthdaysOn(people, '2027-03-01'))).toEqual([3]);
  });

  it('celebrates it on March 1 of a common year with leap_day mar1', () => {
    expect(ids(birthdaysOn(people, '2027-02-28', { leapDay: 'mar1' }))).toEqual([2]);
    expect(ids(birthdaysOn(people, '2027-03-01', { leapDay: 'mar1' }))).toEqual([1, 3]);
  });

  it('celebrates it on February 29 itself in a leap year, whatever the rule', () => {
    for (const leapDay of ['feb28', 'mar1'] as const) {
      expect(ids(birthdaysOn(people, '2028-02-29', { leapDay }))).toEqual([1]);
      expect(ids(birthdaysOn(people, '2028-02-28', { leapDay }))).toEqual([2]);
      expect(ids(birthdaysOn(people, '2028-03-01', { leapDay }))).toEqual([3]);
    }
  });

  it('keeps only members of the filtered groups', () => {
    const a = person(5, { date_of_birth: '1980-06-10', group_ids: [10, 11] });
    const b = person(6, { date_of_birth: '1981-06-10', group_ids: [12] });
    expect(ids(birthdaysOn([a, b], '2026-06-10', { groups: [11] }))).toEqual([5]);
    expect(ids(birthdaysOn([a, b], '2026-06-10', { groups: [] }))).toEqual([5, 6]);
  });

  it('leaves out colleagues who are away only when asked to', () => {
    const away = person(7, { date_of_birth: '1980-06-10', is_away: true });
    expect(ids(birthdaysOn([away], '2026-06-10'))).toEqual([7]);
    expect(ids(birthdaysOn([away], '2026-06-10', { skipAway: true }))).toEqual([]);
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => birthdaysOn(people, '10/06/2026')).toThrow(RangeError);
  });
});

describe('anniversariesOn', () => {
  const people = [
    person(1, { hired_at: '2025-06-10' }),
    person(2, { hired_at: '2021-06-10' }),
    person(3, { hired_at: '2023-06-10' }),
    person(4, { hired_at: '2026-06-10' }), // hired today: no anniversary yet
    person(5, { hired_at: '2016-06-11' }),
  ];

  it('counts the configured years only', () => {
    const found = anniversariesOn(people, '2026-06-10', { years: [1, 5, 10] });
    expect(found.map((a) => [a.person.id, a.years])).toEqual([
      [1, 1],
      [2, 5],
    ]);
  });

  it('counts every year with "every", but not the hire day itself', () => {
    const found = anniversariesOn(people, '2026-06-10', { years: 'every' });
    expect(found.map((a) => [a.person.id, a.years])).toEqual([
      [1, 1],
      [2, 5],
      [3, 3],
    ]);
  });

  it('applies the leap-day rule to a February 29 hire date', () => {
    const leap = [person(9, { hired_at: '2024-02-29' })];
    expect(anniversariesOn(leap, '2025-02-28', { years: 'every' }).map((a) => a.years)).toEqual([1]);
    expect(anniversariesOn(leap, '2025-03-01', { years: 'every' })).toEqual([]);
    expect(anniversariesOn(leap, '2025-03-01', { years: 'every', leapDay: 'mar1' }).map((a) => a.years)).toEqual([1]);
    expect(anniversariesOn(leap, '2028-02-29', { years: [4] }).map((a) => a.years)).toEqual([4]);
  });

  it('applies the group and away filters', () => {
    const a = person(1, { hired_at: '2025-06-10', group_ids: [3], is_away: true });
    const b = person(2, { hired_at: '2025-06-10', group_ids: [4] });
    expect(anniversariesOn([a, b], '2026-06-10', { years: [1], groups: [3] }).map((x) => x.person.id)).toEqual([1]);
    expect(anniversariesOn([a, b], '2026-06-10', { years: [1], skipAway: true }).map((x) => x.person.id)).toEqual([2]);
  });
});

describe('localDate', () => {
  it('reads the new year in Berlin while it is still December 31 in UTC', () => {
    expect(localDate(Date.UTC(2026, 11, 31, 23, 30), 'Europe/Berlin')).toBe('2027-01-01');
    expect(localDate(Date.UTC(2026, 11, 31, 23, 30), 'UTC')).toBe('2026-12-31');
  });

  it('reads December 31 in New York while it is January 1 in UTC', () => {
    expect(localDate(Date.UTC(2027, 0, 1, 3), 'America/New_York')).toBe('2026-12-31');
  });

  it('finds the January 1 birthdays at 08:00 Berlin on New Year, not the December 31 ones', () => {
    const people = [person(1, { date_of_birth: '1990-01-01' }), person(2, { date_of_birth: '1990-12-31' })];
    const today = localDate(Date.UTC(2027, 0, 1, 7), 'Europe/Berlin');
    expect(ids(birthdaysOn(people, today))).toEqual([1]);
    expect(ids(birthdaysOn(people, localDate(Date.UTC(2026, 11, 31, 22, 59), 'Europe/Berlin')))).toEqual([2]);
  });
});
