import { describe, expect, it } from 'vitest';
import { reachCsv } from './report';

describe('reachCsv', () => {
  it('lists everyone with when they confirmed and how often they were reminded, CRLF line ends (RFC 4180)', () => {
    const csv = reachCsv([
      { user: { id: 7, name: 'Ada Lovelace', first_name: 'Ada', email: 'ada@example.com' }, confirmedAt: '2026-06-01T10:00:00+02:00', reminders: 0 },
      { user: { id: 8, name: 'Grace Hopper', first_name: 'Grace', email: 'grace@example.com' }, confirmedAt: undefined, reminders: 2 },
    ]);
    expect(csv).toBe(
      'user_id,name,email,confirmed,confirmed_at,reminders\r\n' +
        '7,Ada Lovelace,ada@example.com,yes,2026-06-01T10:00:00+02:00,0\r\n' +
        '8,Grace Hopper,grace@example.com,no,,2\r\n',
    );
  });

  it('quotes commas and quotes, and keeps a spreadsheet from reading a name as a formula', () => {
    const csv = reachCsv([{ user: { id: 9, name: 'Smith, "Jo"', first_name: 'Jo', email: '=HYPERLINK("x")' }, confirmedAt: undefined, reminders: 1 }]);
    expect(csv.split('\r\n')[1]).toBe('9,"Smith, ""Jo""","\'=HYPERLINK(""x"")",no,,1');
  });
});
