import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testBot } from 'intrabot/testing';

// In process, on a clock that stands still: the rounds' rules. acknowledge.test.ts runs the main
// path over real HTTP against the sandbox.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const json = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as { id: number; title: string; created_at: string } & Record<
    string,
    unknown
  >;
/** A confirmable announcement for Sales (group 3), published Monday 1 June 2026 at 10:00 in Berlin. */
const ANNOUNCEMENT = json('announcement.json');
const CONFIRMATION = json('confirmation.json');
const PUBLISHED = Date.parse('2026-06-01T10:00:00+02:00');
const MANAGER = { id: 1001, name: 'Mia Manager', is_manager: true };

/** Employees with ids from 2001, as GET /users answers. */
const people = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: 2001 + i,
    name: `Person ${i + 1}`,
    first_name: `Person${i + 1}`,
    last_name: 'Test',
    email: `person${i + 1}@example.com`,
    type: 'default',
  }));

/** GET /users a page at a time (spec: Pagination), as the platform pages it. */
const paged =
  (users: unknown[]) =>
  ({ query }: { query: Record<string, unknown> }) => {
    const page = Number(query.page ?? 1);
    const per = Number(query.per_page ?? 25);
    const last = Math.max(1, Math.ceil(users.length / per));
    return {
      data: users.slice((page - 1) * per, page * per),
      links: { next: page < last ? `/users?page=${page + 1}` : null },
      meta: { current_page: page, last_page: last, per_page: per, total: users.length },
    };
  };

async function tracked(options: { users?: unknown[]; config?: Record<string, unknown>; confirmations?: unknown[]; tenant?: { timezone: string } } = {}) {
  const bot = await testBot(new URL('.', import.meta.url), {
    now: PUBLISHED + 5 * 60_000,
    ...(options.config ? { config: options.config } : {}),
    ...(options.tenant ? { tenant: options.tenant } : {}),
    api: {
      'announcements.get': ANNOUNCEMENT,
      'users.list': paged(options.users ?? people(5)),
      'announcements.confirmations': options.confirmations ?? [],
      'confirmations.list': [],
    },
  });
  await bot.command('/broadcast 41', { user: MANAGER });
  return bot;
}

const dmsTo = (sent: { kind: string }[]) =>
  sent
    .filter((s): s is { kind: 'dm'; userId: number; text: string } => s.kind === 'dm')
    .map((s) => s.userId)
    .sort((a, b) => a - b);

describe('/broadcast', () => {
  it('tracks a confirmable announcement, answering how it reminds and reports', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, api: { 'announcements.get': ANNOUNCEMENT } });
    const sent = await bot.command('/broadcast 41', { user: MANAGER });
    expect(sent).toEqual([
      {
        kind: 'comment',
        postId: 5001,
        text:
          'Tracking "Fire drill procedure" (41): whoever has not confirmed gets up to 2 reminders by direct message, the first 1 day after publication, in working hours. ' +
          'The report comes to you by direct message when the round ends (8 June 2026); /broadcast report 41 sends it now.',
      },
    ]);
    expect(await bot.store.get('rounds')).toEqual([41]);
  });

  it('refuses an announcement that does not ask for confirmation (spec: Announcement, is_confirmable)', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, api: { 'announcements.get': { ...ANNOUNCEMENT, is_confirmable: false } } });
    const [reply] = await bot.command('/broadcast 41', { user: MANAGER });
    expect(reply).toMatchObject({ kind: 'comment', text: expect.stringContaining('does not ask for confirmation') });
    expect(await bot.store.get('rounds')).toBeUndefined();
  });

  it('tracks an announcement once, however often it is named', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, api: { 'announcements.get': ANNOUNCEMENT } });
    await bot.command('/broadcast 41', { user: MANAGER });
    const [again] = await bot.command('/broadcast 41', { user: { ...MANAGER, id: 1002 } });
    expect(again).toMatchObject({ text: expect.stringContaining('is tracked already') });
    expect(await bot.store.get('rounds')).toEqual([41]);
    expect(await bot.store.get('round:41')).toMatchObject({ authorId: 1001 });
  });

  it('is for managers only', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, api: { 'announcements.get': ANNOUNCEMENT } });
    const [refused] = await bot.command('/broadcast 41', { user: { id: 1003, name: 'Eve Employee', is_manager: false } });
    expect(refused).toMatchObject({ kind: 'comment', text: 'Sorry, /broadcast is only available to managers.' });
    expect(await bot.store.get('rounds')).toBeUndefined();
  });

  it('answers anything else with its usage', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED });
    const [reply] = await bot.command('/broadcast everyone please read', { user: MANAGER });
    expect(reply).toMatchObject({ text: expect.stringMatching(/^Usage: \/broadcast <announcement id>/) });
  });
});

describe('announcement.published', () => {
  it('tracks a confirmable announcement published in the admin interface by itself, telling its author by DM', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, config: { track_published: true } });
    const sent = await bot.event('announcement.published', ANNOUNCEMENT);
    expect(sent).toEqual([{ kind: 'dm', userId: 1001, text: expect.stringMatching(/^Tracking "Fire drill procedure" \(41\)/) }]);
    expect(await bot.store.get('round:41')).toMatchObject({ authorId: 1001, groups: [3], publishedAt: PUBLISHED });
  });

  it('leaves announcements that do not ask for confirmation alone, and everything with track_published off (the default)', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: PUBLISHED, config: { track_published: true } });
    expect(await bot.event('announcement.published', { ...ANNOUNCEMENT, is_confirmable: false })).toEqual([]);
    const off = await testBot(new URL('.', import.meta.url), { now: PUBLISHED });
    expect(await off.event('announcement.published', ANNOUNCEMENT)).toEqual([]);
    expect(await bot.store.get('rounds')).toBeUndefined();
    expect(await off.store.get('rounds')).toBeUndefined();
  });
});

describe('reminders', () => {
  it('sends nothing before remind_after has passed', async () => {
    const bot = await tracked();
    bot.clock.set(PUBLISHED + 23 * HOUR);
    expect(await bot.job('remind')).toEqual([]);
  });

  it('reminds by DM each employee of the groups who has not confirmed once remind_after has passed; who confirmed gets none', async () => {
    // 2002 confirmed before the round started (the confirmations list), 2001 by announcement.confirmed
    const bot = await tracked({ confirmations: [CONFIRMATION] });
    await bot.event('announcement.confirmed', {
      id: 9002,
      employee: { id: 2001, name: 'Person 1' },
      announcement: { id: 41, title: 'Fire drill procedure' },
      confirmed_at: '2026-06-01T12:00:00+02:00',
    });
    bot.clock.set(PUBLISHED + 25 * HOUR); // Tuesday 11:00 in Berlin
    const sent = await bot.job('remind');
    expect(dmsTo(sent)).toEqual([2003, 2004, 2005]);
    expect(sent[0]).toMatchObject({
      text: 'Hi Person3, a reminder: the announcement "Fire drill procedure" asks you to confirm that you have read it. Please open it in the app and confirm. Thank you!',
    });
    expect(bot.calls.find((c) => c.endpoint === 'users.list')?.query).toMatchObject({ group_id: 3, per_page: 50 });
  });

  it('never reminds anyone twice in one round, however often the job runs', async () => {
    const bot = await tracked();
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toHaveLength(5);
    expect(await bot.job('remind')).toEqual([]);
    bot.clock.advance(HOUR);
    expect(await bot.job('remind')).toEqual([]);
  });

  it('reminds again each remind_every, at most max_reminders times each', async () => {
    const bot = await tracked({ config: { max_reminders: 2 } });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toHaveLength(5);
    await bot.event('announcement.confirmed', { id: 9003, employee: { id: 2005, name: 'Person 5' }, announcement: { id: 41, title: 'Fire drill procedure' } });
    bot.clock.set(PUBLISHED + 49 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toEqual([2001, 2002, 2003, 2004]);
    bot.clock.set(PUBLISHED + 73 * HOUR);
    expect(await bot.job('remind')).toEqual([]);
    expect(await bot.store.get('reminded:41:2001')).toEqual({ count: 2, round: 2 });
  });

  it("sends reminders only in working hours, on the tenant's wall clock", async () => {
    const bot = await tracked();
    bot.clock.set(Date.parse('2026-06-02T17:30:00+02:00')); // Tuesday after 17:00
    expect(await bot.job('remind')).toEqual([]);
    bot.clock.set(Date.parse('2026-06-06T11:00:00+02:00')); // Saturday
    expect(await bot.job('remind')).toEqual([]);
    bot.clock.set(Date.parse('2026-06-08T09:00:00+02:00')); // Monday 09:00
    expect(dmsTo(await bot.job('remind'))).toHaveLength(5);

    // 11:00 in Berlin is 05:00 in New York
    const newYork = await tracked({ tenant: { timezone: 'America/New_York' } });
    newYork.clock.set(Date.parse('2026-06-02T11:00:00+02:00'));
    expect(await newYork.job('remind')).toEqual([]);
    newYork.clock.set(Date.parse('2026-06-02T09:30:00-04:00'));
    expect(dmsTo(await newYork.job('remind'))).toHaveLength(5);
  });

  it('catches up from the confirmations list what announcement.confirmed did not bring', async () => {
    const bot = await tracked();
    bot.stub('confirmations.list', [{ ...CONFIRMATION, user: { id: 2003, name: 'Person 3' } }]);
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toEqual([2001, 2002, 2004, 2005]);
    const since = bot.calls.filter((c) => c.endpoint === 'confirmations.list').map((c) => c.query.since);
    // the next run asks only for what is newer than the newest seen
    await bot.job('remind');
    expect(bot.calls.filter((c) => c.endpoint === 'confirmations.list').at(-1)?.query.since).toBe(CONFIRMATION.created_at);
    expect(since).toHaveLength(1);
  });

  it('keeps no confirmation of an announcement it does not track', async () => {
    const bot = await tracked();
    await bot.event('announcement.confirmed', { id: 9004, employee: { id: 2001, name: 'Person 1' }, announcement: { id: 77, title: 'Canteen hours' } });
    expect(await bot.store.get('confirmed:77:2001')).toBeUndefined();
  });

  it('sends no reminders with max_reminders 0', async () => {
    const bot = await tracked({ config: { max_reminders: 0 } });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(await bot.job('remind')).toEqual([]);
  });
});

describe('large audiences', () => {
  it('pages through 1,200 recipients, at most per_run a run, each run carrying on where the last stopped', async () => {
    const bot = await tracked({ users: people(1200), config: { per_run: 500 } });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    const runs = [await bot.job('remind'), await bot.job('remind'), await bot.job('remind'), await bot.job('remind')];
    expect(runs.map((sent) => sent.length)).toEqual([500, 500, 200, 0]);
    const everyone = runs.flatMap((sent) => dmsTo(sent));
    expect(new Set(everyone).size).toBe(1200);
    // the directory was read once: 24 pages of 50
    expect(bot.calls.filter((c) => c.endpoint === 'users.list')).toHaveLength(24);
    // ctx.progress: the progress line of `intrabot run` and `intrabot jobs` (a debug line in testBot)
    const progress = bot.logs.filter((l) => l.level === 'debug').map((l) => l.message);
    expect(progress).toContain('"Fire drill procedure": read 24 pages of the audience');
    expect(progress).toContain('"Fire drill procedure": reminder round 1, page 10 of 24, 500 reminders queued');
    expect(progress.at(-1)).toBe('"Fire drill procedure": reminder round 1, page 24 of 24, 200 reminders queued');
  });

  it('a run that dies while reading the audience is carried on by the next, from the page it reached', async () => {
    const users = people(300);
    const bot = await tracked({ users });
    let failPage: number | undefined = 4;
    bot.stub('users.list', (call: { query: Record<string, unknown> }) => {
      if (Number(call.query.page) === failPage) {
        failPage = undefined;
        throw new Error('the process died');
      }
      return paged(users)(call);
    });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    await expect(bot.job('remind')).rejects.toThrow('the process died');
    const sent = await bot.job('remind');
    expect(new Set(dmsTo(sent)).size).toBe(300);
    expect(bot.calls.filter((c) => c.endpoint === 'users.list').map((c) => c.query.page)).toEqual([1, 2, 3, 4, 4, 5, 6]);
  });

  it('a reminder round that falls due while the last one is still being walked starts again from the first page', async () => {
    const bot = await tracked({ users: people(120), config: { per_run: 50 } });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toHaveLength(50); // round 1, page 1 of 3
    bot.clock.set(PUBLISHED + 49 * HOUR); // round 2 is due
    const later = [];
    for (let run = 0; run < 4; run++) later.push(...dmsTo(await bot.job('remind')));
    expect(later).toHaveLength(120);
    expect(new Set(later).size).toBe(120);
    expect(await bot.store.get('reminded:41:2001')).toEqual({ count: 2, round: 2 });
    expect(await bot.store.get('reminded:41:2120')).toEqual({ count: 1, round: 2 });
  });

  it('counts an employee in two of the groups once', async () => {
    const bot = await testBot(new URL('.', import.meta.url), {
      now: PUBLISHED,
      api: {
        'announcements.get': {
          ...ANNOUNCEMENT,
          groups: [
            { id: 3, name: 'Sales' },
            { id: 4, name: 'Marketing' },
          ],
        },
        // the same three people in both groups
        'users.list': people(3),
        'announcements.confirmations': [],
        'confirmations.list': [],
      },
    });
    await bot.command('/broadcast 41', { user: MANAGER });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    expect(dmsTo(await bot.job('remind'))).toEqual([2001, 2002, 2003]);
    expect(bot.calls.filter((c) => c.endpoint === 'users.list').map((c) => c.query.group_id)).toEqual([3, 4]);
  });
});

describe('the report', () => {
  it('closes the round close_after publication with a DM to its author: sent, confirmed, reminded, and a CSV as a document', async () => {
    const bot = await tracked({ confirmations: [CONFIRMATION] });
    bot.clock.set(PUBLISHED + 25 * HOUR);
    await bot.job('remind');
    bot.clock.set(Date.parse('2026-06-08T10:05:00+02:00')); // 7 days later
    const sent = await bot.job('remind');
    expect(sent).toEqual([
      {
        kind: 'dm',
        userId: 1001,
        text:
          'Final report on "Fire drill procedure" (41):\n• sent to 5 employees\n• confirmed: 1 (20%)\n• not confirmed yet: 4\n• reminded: 4 employees, 4 reminders in all\n' +
          'The attached CSV lists everyone, with when they confirmed and how often they were reminded.',
        media: [{ type: 'document', url: expect.stringMatching(/\/acknowledge-41\.csv$/) }],
      },
    ]);
    expect(await bot.store.get('rounds')).toEqual([]);
    bot.clock.advance(DAY);
    expect(await bot.job('remind')).toEqual([]);
  });

  it('/broadcast report <id> sends the report now to who asked', async () => {
    const bot = await tracked();
    bot.clock.set(PUBLISHED + 25 * HOUR);
    await bot.job('remind');
    const sent = await bot.command('/broadcast report 41', { user: { ...MANAGER, id: 1005 } });
    expect(sent).toEqual([
      {
        kind: 'dm',
        userId: 1005,
        text: expect.stringMatching(/^Report on "Fire drill procedure" \(41\):\n• sent to 5 employees\n• confirmed: 0 \(0%\)/),
        media: [{ type: 'document', url: expect.stringMatching(/\/acknowledge-41\.csv$/) }],
      },
      { kind: 'comment', postId: 5002, text: 'The report on "Fire drill procedure" is on its way to you by direct message.' },
    ]);
  });
});
