import { readFileSync } from 'node:fs';
import { apiError, type ApiCall, testBot } from 'intrabot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCalendarServer, type CalendarServer } from './calendar-server';

const ENGINEERING = 3;
const MINUTE = 60_000;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

let host: CalendarServer;
beforeAll(async () => (host = await startCalendarServer()));
afterAll(async () => host?.close());

/** The bot at `now` with its two calendars served by the test's host (paths given), in Berlin. */
function calendarBot(now: string, paths: { oncall?: string; team?: string } = {}, config: Record<string, unknown> = {}) {
  return testBot(new URL('.', import.meta.url), {
    now,
    walls: { Engineering: ENGINEERING },
    env: { CALENDAR_ONCALL_URL: host.url(paths.oncall ?? '/oncall.ics'), CALENDAR_TEAM_URL: host.url(paths.team ?? '/team.ics') },
    config,
  });
}

/** A platform double for the calendar entries the mirror writes (spec: Calendar entries): ids from 700. */
function entriesDouble() {
  const entries = new Map<number, Record<string, unknown>>();
  let next = 700;
  return {
    entries,
    stubs: {
      'calendarEntries.create': ({ body }: ApiCall) => {
        const entry = { id: next++, ...(body as object) };
        entries.set(entry.id, entry);
        return entry;
      },
      'calendarEntries.update': ({ params, body }: ApiCall) => {
        const entry = { ...entries.get(Number(params.id)), ...(body as object) };
        entries.set(Number(params.id), entry);
        return entry;
      },
      'calendarEntries.delete': ({ params }: ApiCall) => void entries.delete(Number(params.id)),
    },
  };
}

describe('calendar: who is on call', () => {
  it('announces the person the on-call event names, until when, once a day', async () => {
    // Thursday 3 December 2026, 09:00 in Berlin: Ana's week (30 Nov to 7 Dec, every other week)
    const bot = await calendarBot('2026-12-03T08:00:00Z');
    expect(await bot.job('oncall')).toEqual([
      { kind: 'post', wall: ENGINEERING, text: '📟 On call today, Thursday, 3 December 2026:\n• Ana Lima, until 7 Dec 2026, 09:00' },
    ]);
    expect(await bot.job('oncall')).toEqual([]);
  });

  it("follows the weekly rota: the other person's week, and a RECURRENCE-ID swap in place of its week", async () => {
    const ben = await calendarBot('2026-12-10T08:00:00Z');
    expect(await ben.job('oncall')).toEqual([expect.objectContaining({ text: expect.stringContaining('• Ben Okafor, until 14 Dec 2026, 09:00') })]);
    // Ana's week of 14 December was swapped to Chen
    const chen = await calendarBot('2026-12-15T08:00:00Z');
    expect(await chen.job('oncall')).toEqual([expect.objectContaining({ text: expect.stringContaining('• Chen Wei, until 21 Dec 2026, 09:00') })]);
    // the rota goes on: Ana again from 28 December
    const ana = await calendarBot('2026-12-28T08:00:00Z');
    expect(await ana.job('oncall')).toEqual([expect.objectContaining({ text: expect.stringContaining('• Ana Lima, until 4 Jan 2027, 09:00') })]);
  });

  it('names only events whose summary matches the pattern, and says so when nobody is on call', async () => {
    // the maintenance window on 5 December is in the on-call calendar but names nobody
    const bot = await calendarBot('2026-12-05T01:30:00Z', { oncall: '/team.ics' });
    expect(await bot.job('oncall')).toEqual([
      { kind: 'post', wall: ENGINEERING, text: '⚠️ Nobody is on call today, Saturday, 5 December 2026, says the oncall calendar.' },
    ]);
  });
});

describe('calendar: reminders', () => {
  // Tuesday 24 March 2026: weekly planning at 10:00 in Berlin (09:00 UTC, winter time)
  it('reminds the wall of an event starting within before, once', async () => {
    const bot = await calendarBot('2026-03-24T08:50:00Z');
    expect(await bot.job('remind')).toEqual([{ kind: 'post', wall: ENGINEERING, text: '⏰ In 10 minutes, at 10:00: Weekly planning (Room Ada / video call)' }]);
    bot.clock.advance(5 * MINUTE);
    expect(await bot.job('remind')).toEqual([]);
  });

  it('reminds at 10:00 Berlin time after the change to summer time (08:00 UTC, not 09:00)', async () => {
    const bot = await calendarBot('2026-03-31T07:46:00Z');
    expect(await bot.job('remind')).toEqual([expect.objectContaining({ text: '⏰ In 14 minutes, at 10:00: Weekly planning (Room Ada / video call)' })]);
    const hourLate = await calendarBot('2026-03-31T08:46:00Z');
    expect(await hourLate.job('remind')).toEqual([]);
  });

  it('reminds of nothing on an EXDATE, of the override at its new time, and never of a cancelled event', async () => {
    // 7 April is an EXDATE
    expect(await (await calendarBot('2026-04-07T07:50:00Z')).job('remind')).toEqual([]);
    // 14 April moved from 10:00 to 14:00
    expect(await (await calendarBot('2026-04-14T07:50:00Z')).job('remind')).toEqual([]);
    expect(await (await calendarBot('2026-04-14T11:50:00Z')).job('remind')).toEqual([
      expect.objectContaining({ text: expect.stringContaining('at 14:00: Weekly planning (moved to the afternoon)') }),
    ]);
    // the release review of 26 March, 15:00, is STATUS:CANCELLED
    expect(await (await calendarBot('2026-03-26T13:50:00Z')).job('remind')).toEqual([]);
  });
});

describe('calendar: mirroring into the platform', () => {
  // Tuesday 24 March 2026, 09:30 in Berlin; the horizon is 30 days
  const NOW = '2026-03-24T08:30:00Z';

  it('creates one calendar entry per occurrence in the horizon, in the tenant zone, and none for cancelled ones (spec: Calendar entries)', async () => {
    const platform = entriesDouble();
    const bot = await calendarBot(NOW, {}, {});
    for (const [key, answer] of Object.entries(platform.stubs)) bot.stub(key, answer);
    await bot.job('mirror');
    const created = [...platform.entries.values()].map((e) => `${e.title} ${e.starts_at} ${e.starts_time ?? ''}-${e.ends_at} ${e.ends_time ?? ''}`.trim());
    expect(created).toEqual([
      'Weekly planning 2026-03-24 10:00-2026-03-24 10:30',
      'Sync with the New York office 2026-03-25 14:00-2026-03-25 14:30',
      // all day: dates alone, the last day inclusive
      'Engineering offsite 2026-03-30 -2026-03-31',
      'Weekly planning 2026-03-31 10:00-2026-03-31 10:30',
      'Weekly planning (moved to the afternoon) 2026-04-14 14:00-2026-04-14 14:30',
      'Weekly planning 2026-04-21 10:00-2026-04-21 10:30',
    ]);
    expect(platform.entries.get(700)).toEqual({
      id: 700,
      title: 'Weekly planning',
      starts_at: '2026-03-24',
      starts_time: '10:00',
      ends_at: '2026-03-24',
      ends_time: '10:30',
      body: 'Sprint board review, then priorities for the week.\nAgenda: https://wiki.acme.example/planning\n\n📍 Room Ada / video call',
      groups: [],
      is_published: true,
    });
  });

  it('creates each entry once: a second run with the ICS unchanged writes nothing', async () => {
    const platform = entriesDouble();
    const bot = await calendarBot(NOW);
    for (const [key, answer] of Object.entries(platform.stubs)) bot.stub(key, answer);
    await bot.job('mirror');
    const writes = bot.calls.length;
    bot.clock.advance(60 * MINUTE);
    await bot.job('mirror');
    expect(bot.calls).toHaveLength(writes);
  });

  it('updates the entry whose event changed, deletes those cancelled or gone from the feed, and leaves the rest', async () => {
    host.answer('/changing.ics', { text: fixture('team.ics') });
    const platform = entriesDouble();
    const bot = await calendarBot(NOW, { team: '/changing.ics' });
    for (const [key, answer] of Object.entries(platform.stubs)) bot.stub(key, answer);
    await bot.job('mirror');
    const before = bot.calls.length;
    const changed = fixture('team.ics')
      // the US sync moves half an hour; the offsite is cancelled; the planning series loses 21 April
      .replace('DTSTART;TZID=America/New_York:20260325T090000', 'DTSTART;TZID=America/New_York:20260325T093000')
      .replace('DTEND;TZID=America/New_York:20260325T093000', 'DTEND;TZID=America/New_York:20260325T100000')
      .replace('SUMMARY:Engineering offsite', 'SUMMARY:Engineering offsite\r\nSTATUS:CANCELLED')
      .replace('EXDATE;TZID=Europe/Berlin:20260407T100000', 'EXDATE;TZID=Europe/Berlin:20260407T100000,20260421T100000');
    host.answer('/changing.ics', { text: changed });
    bot.clock.advance(60 * MINUTE);
    await bot.job('mirror');
    expect(bot.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /calendar-entries/701',
      'DELETE /calendar-entries/702',
      'DELETE /calendar-entries/705',
    ]);
    expect(platform.entries.get(701)).toMatchObject({ starts_time: '14:30', ends_time: '15:00' });
  });

  it('makes an entry again when it was deleted on the platform, and finds the one a run that died made', async () => {
    const platform = entriesDouble();
    const bot = await calendarBot(NOW);
    for (const [key, answer] of Object.entries(platform.stubs)) bot.stub(key, answer);
    await bot.job('mirror');
    // entry 700 deleted by someone on the platform; the offsite (702) created by a run that died before it kept the id
    const index = (await bot.store.get<Record<string, { id?: number; hash: string; start: string }>>('mirror:team'))!;
    const [planningKey] = Object.entries(index).find(([, m]) => m.id === 700)!;
    const [offsiteKey, offsite] = Object.entries(index).find(([, m]) => m.id === 702)!;
    index[planningKey]!.hash = 'stale';
    index[offsiteKey] = { hash: offsite.hash, start: offsite.start, pending: { title: 'Engineering offsite', starts_at: '2026-03-30' } } as never;
    await bot.store.set('mirror:team', index);
    bot.stub('PUT /calendar-entries/700', apiError(404));
    bot.stub('calendarEntries.list', () => [...platform.entries.values()]);
    const before = bot.calls.length;
    await bot.job('mirror');
    expect(bot.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /calendar-entries/700',
      'POST /calendar-entries',
      'GET /calendar-entries',
    ]);
    expect((await bot.store.get<Record<string, { id?: number }>>('mirror:team'))![offsiteKey]).toMatchObject({ id: 702 });
  });
});

describe('calendar: calendars that fail, and configuration', () => {
  it('a calendar that cannot be read fails the run naming it, after the others were handled', async () => {
    host.answer('/down.ics', { status: 503 });
    const bot = await calendarBot(
      '2026-03-24T08:50:00Z',
      {},
      {
        calendars: [
          { name: 'oncall', url: '' },
          { name: 'team', url: host.url('/team.ics') },
          { name: 'down', url: host.url('/down.ics') },
        ],
        reminders: { calendars: ['down', 'team'] },
      },
    );
    await expect(bot.job('remind')).rejects.toThrow(`calendars not read: down (${host.url('/down.ics')} answered 503)`);
    expect(bot.sent).toEqual([expect.objectContaining({ text: expect.stringContaining('Weekly planning') })]);
    expect(bot.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', message: `calendar down could not be read: ${host.url('/down.ics')} answered 503` }),
    );
  });

  it('reads a calendar again with its ETag and answers from the kept copy on a 304', async () => {
    const bot = await calendarBot('2026-03-24T08:50:00Z');
    await bot.job('remind');
    bot.clock.advance(MINUTE);
    const seen = host.requests.length;
    await bot.job('remind');
    expect(host.requests.slice(seen)).toEqual([
      expect.objectContaining({ path: '/team.ics', headers: expect.objectContaining({ 'if-none-match': expect.any(String) }) }),
    ]);
  });

  it('does nothing and fetches nothing with the calendars off (the example as it comes)', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: '2026-03-24T08:50:00Z', env: { CALENDAR_ONCALL_URL: '', CALENDAR_TEAM_URL: '' } });
    const seen = host.requests.length;
    for (const job of ['oncall', 'remind', 'mirror']) expect(await bot.job(job)).toEqual([]);
    expect(host.requests).toHaveLength(seen);
  });

  it('refuses a part naming a calendar the config does not have, and a bad pattern, naming the field', async () => {
    await expect(calendarBot(NOW_ANY, {}, { oncall: { calendar: 'rota' } })).rejects.toThrow('config.oncall.calendar: no calendar named "rota" in calendars');
    await expect(calendarBot(NOW_ANY, {}, { oncall: { calendar: 'oncall', pattern: '(' } })).rejects.toThrow(
      /config\.oncall\.pattern: not a regular expression/,
    );
    await expect(calendarBot(NOW_ANY, {}, { calendars: [{ name: 'team', url: 'webcal://x/y.ics' }] })).rejects.toThrow(/config\.calendars\.0\.url/);
  });
});

const NOW_ANY = '2026-03-24T08:30:00Z';
