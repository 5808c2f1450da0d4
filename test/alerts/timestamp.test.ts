import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/alerts/timestamp';

describe('parseTimestamp', () => {
  it.each([
    ['0001-01-01T00:00:00Z', undefined],
    ['', undefined],
    ['not a date', undefined],
    ['2026-08-20T09:20:00Z', '2026-08-20T09:20:00.000Z'],
    ['2026-08-20T11:20:00+02:00', '2026-08-20T09:20:00.000Z'],
    ['2026-08-20T09:31:07.412000Z', '2026-08-20T09:31:07.412Z'],
    ['2026-08-20 09:33:12.504', '2026-08-20T09:33:12.504Z'],
    ['1787219160000', '2026-08-20T09:46:00.000Z'],
    [1787218267.412, '2026-08-20T09:31:07.412Z'],
  ])('reads %j as %j', (input, expected) => {
    expect(parseTimestamp(input)).toBe(expected);
  });
});
