import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startPair, type Pair } from 'intrabot/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCalendarServer, type CalendarServer } from './calendar-server';

interface Entry {
  id: number;
  title: string;
  starts_at: string;
  starts_time: string;
  ends_time: string;
}

/** This bot's name, as the runtime knows it. */
const BOT = 'calendar';
let pair: Pair;
let host: CalendarServer;

// End to end: the team calendar read over real HTTP from a calendar host on loopback, its events
// written to the sandbox as calendar entries through the API (spec: Calendar entries), and a reminder
// posted on the Engineering wall through the outbox. Tuesday 24 March 2026, 09:30 in Berlin.
beforeAll(async () => {
  host = await startCalendarServer();
  host.answer('/team.ics', { text: readFileSync(new URL('./fixtures/team.ics', import.meta.url), 'utf8') });
  pair = await startPair({
    bots: [BOT],
    botsDir: fileURLToPath(new URL('..', import.meta.url)),
    start: Date.parse('2026-03-24T08:30:00Z'),
    // the test runs the jobs itself: their crons are moved out of the days the clock goes through
    env: { CALENDAR_TEAM_URL: host.url('/team.ics'), CALENDAR_MIRROR_CRON: '0 3 1 1 *', CALENDAR_REMIND_CRON: '0 3 1 1 *', CALENDAR_ONCALL_CRON: '0 3 1 1 *' },
  });
});
afterAll(async () => {
  await pair?.close();
  await host?.close();
});

const entries = async () =>
  (await pair.platform.request<{ data: Entry[] }>('GET', '/api/open/v1/calendar-entries?per_page=50')).data.filter((e) => e.title !== 'Office closed');

it('mirrors the team calendar into calendar entries once, follows a change of the ICS, and reminds the wall before an event', async () => {
  await pair.runJob(BOT, 'mirror');
  const first = await entries();
  expect(first.map((e) => `${e.title} ${e.starts_at} ${e.starts_time}`).sort()).toEqual([
    'Engineering offsite 2026-03-30 00:00',
    'Sync with the New York office 2026-03-25 14:00',
    'Weekly planning (moved to the afternoon) 2026-04-14 14:00',
    'Weekly planning 2026-03-24 10:00',
    'Weekly planning 2026-03-31 10:00',
    'Weekly planning 2026-04-21 10:00',
  ]);

  // the offsite is cancelled and the US sync renamed: one entry removed, one changed, none added
  const changed = readFileSync(new URL('./fixtures/team.ics', import.meta.url), 'utf8')
    .replace('SUMMARY:Engineering offsite', 'SUMMARY:Engineering offsite\r\nSTATUS:CANCELLED')
    .replace('SUMMARY:Sync with the New York office', 'SUMMARY:Sync with New York');
  host.answer('/team.ics', { text: changed });
  await pair.platform.advance(60 * 60);
  await pair.runJob(BOT, 'mirror');
  const second = await entries();
  expect(second).toHaveLength(5);
  expect(second.find((e) => e.title === 'Sync with New York')?.id).toBe(first.find((e) => e.title === 'Sync with the New York office')?.id);
  expect(second.some((e) => e.title === 'Engineering offsite')).toBe(false);

  // 31 March, 09:50 in Berlin (07:50 UTC: summer time since the 29th), ten minutes before the planning
  await pair.platform.advance((Date.parse('2026-03-31T07:50:00Z') - pair.clock.now()) / 1000);
  await pair.runJob(BOT, 'remind');
  await pair.settle({ advanceClock: true });
  const wall = (await pair.refs()).department_walls.Engineering!;
  const reminders = await pair.platform.waitFor(
    async () => ((await pair.platform.wallPosts(wall)) as unknown as { body: string }[]).filter((p) => p.body.startsWith('⏰')),
    (found) => found.length > 0,
  );
  expect(reminders.map((p) => p.body)).toEqual(['⏰ In 10 minutes, at 10:00: Weekly planning (Room Ada / video call)']);
});
