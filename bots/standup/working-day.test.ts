import { describe, expect, it } from 'vitest';
import { clockTime, isAway, isWorkingDay, weekdayOf } from './working-day';

const WEEK = { workdays: ['MON', 'TUE', 'WED', 'THU', 'FRI'] as const, holidays: ['2026-12-24'] };

describe('working days', () => {
  it('reads the weekday of a calendar date, whatever the zone of the machine', () => {
    expect(['2026-12-03', '2026-12-05', '2026-12-06'].map(weekdayOf)).toEqual(['THU', 'SAT', 'SUN']);
  });

  it('has a stand-up on a workday that is not a holiday', () => {
    expect(isWorkingDay('2026-12-03', { ...WEEK, workdays: [...WEEK.workdays] })).toBe(true);
  });

  it('has none on a weekend or a configured holiday', () => {
    const days = { ...WEEK, workdays: [...WEEK.workdays] };
    expect(isWorkingDay('2026-12-05', days)).toBe(false);
    expect(isWorkingDay('2026-12-24', days)).toBe(false);
  });
});

describe('away members', () => {
  const ada = { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' };

  // spec: User, is_away is a boolean with no dates: away now, whatever the day
  it('counts a member the platform marks away as away', () => {
    expect(isAway({ ...ada, is_away: true }, '2026-12-03', [])).toBe(true);
  });

  it('counts a configured absence by id or by email (any case), both ends included', () => {
    expect(isAway(ada, '2026-12-03', [{ user: 7, from: '2026-12-03' }])).toBe(true);
    expect(isAway(ada, '2026-12-04', [{ user: 7, from: '2026-12-03' }])).toBe(false);
    expect(isAway(ada, '2026-12-10', [{ user: 'ADA@example.com', from: '2026-12-07', to: '2026-12-10' }])).toBe(true);
    expect(isAway(ada, '2026-12-11', [{ user: 'ada@example.com', from: '2026-12-07', to: '2026-12-10' }])).toBe(false);
    expect(isAway(ada, '2026-12-03', [{ user: 8, from: '2026-12-01', to: '2026-12-31' }])).toBe(false);
  });
});

it('shows an instant as the time of day in the tenant zone', () => {
  expect(clockTime(Date.UTC(2026, 11, 3, 10, 0), 'Europe/Berlin')).toBe('11:00');
  expect(clockTime(Date.UTC(2026, 6, 3, 10, 0), 'Europe/Berlin')).toBe('12:00');
});
