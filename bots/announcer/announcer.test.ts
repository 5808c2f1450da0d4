import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from 'intrabot/helpers';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

const API = '/api/open/v1';
const HOUR_S = 3600;
const DAY_MS = 86_400_000;

/** A job as `GET /_admin/jobs` lists it (`intrabot jobs`). */
interface Job {
  schedule: { job: string };
  lastRuns: { trigger: string; outcome: string; slot: number }[];
}

interface Listed {
  id: number;
  title: string;
  body: string;
  [key: string]: unknown;
}

// End to end, against the sandbox; the jobs' output in detail is tested in process in publish-job.test.ts.
describe('announcer bot', () => {
  let pair: Pair;
  let refs: SeedRefs;

  const runJob = (job: string, slotMs = pair.clock.now()) => pair.runJob('announcer', job, { slotMs });
  /**
   * Until the remind job's run for a cron slot after `after` has finished: the scheduler runs it by
   * itself once the clock passes the slot (the slots a jump skipped are recorded as skipped-late).
   */
  const remindSlotRunAfter = (after: number) =>
    pair.platform.waitFor(
      async () => {
        const jobs = (await (await fetch(`${pair.runtime.inspect().url}/_admin/jobs`)).json()) as { data: Job[] };
        return jobs.data.find((j) => j.schedule.job === 'remind')?.lastRuns.find((r) => r.trigger === 'slot' && r.outcome === 'ok' && r.slot > after);
      },
      (run) => run !== undefined,
    );
  const list = async (path: string) => (await pair.platform.request<{ data: Listed[] }>('GET', `${API}${path}`)).data;
  const remindersAbout = async (title: string) => (await pair.platform.messages({ kind: 'direct' })).filter((m) => String(m.text).includes(`"${title}"`));

  beforeAll(async () => {
    pair = await startPair({ bots: ['announcer'] });
    refs = await pair.refs();
  });
  afterAll(async () => pair?.close());

  it('publishes the weekly menu from its template, once per slot', async () => {
    const slot = pair.clock.now();
    await runJob('weekly-menu', slot);
    await runJob('weekly-menu', slot);
    await pair.settle({ advanceClock: true });
    const menus = (await list('/announcements?per_page=50')).filter((a) => a.title === "This week's menu");
    expect(menus).toHaveLength(1);
    expect(menus[0]!.body).toContain('• Monday: Lentil soup');
  });

  it('creates the all-hands event scheduled with publish_at two days before it starts', async () => {
    const slot = pair.clock.now();
    await runJob('all-hands', slot);
    await pair.settle({ advanceClock: true });
    const drafts = (await list('/events?status=draft&per_page=50')).filter((e) => e.title === 'Monthly all-hands');
    expect(drafts).toHaveLength(1);
    const event = drafts[0]!;
    expect(event).toMatchObject({
      starts_at: localDate(slot + 7 * DAY_MS, 'Europe/Berlin'),
      starts_time: '16:00',
      location: 'Main hall',
      is_published: false,
    });
    expect(Date.parse(String(event.scheduled_at))).toBe(Math.floor((slot + 5 * DAY_MS) / 1000) * 1000);
    // not live yet: the published list does not show it
    expect((await list('/events?per_page=50')).some((e) => e.title === 'Monthly all-hands')).toBe(false);
  });

  describe('reminders to confirm', () => {
    const title = 'Fire drill procedure';
    let sales: number[];
    let confirmer: number;

    beforeAll(async () => {
      const members = await pair.platform.request<{ data: { id: number; type: string }[] }>(
        'GET',
        `${API}/users?group_id=${refs.departments.Sales}&per_page=50`,
      );
      sales = members.data.filter((u) => u.type === 'default').map((u) => u.id);
      confirmer = sales[0]!;
      // confirmable announcements come from the admin interface (spec: Announcements: the API cannot create them)
      const created = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/announcements', {
        title,
        body: 'Please read where to gather during a fire drill.',
        groups: [refs.departments.Sales],
      });
      await pair.platform.request('POST', `/_sandbox/announcements/${created.data.id}/confirm`, { user_id: confirmer });
      await pair.settle({ advanceClock: true });
    });

    it('remembers the confirmation that announcement.confirmed brought', async () => {
      const announcements = await list('/announcements?per_page=50');
      const id = announcements.find((a) => a.title === title)!.id;
      const kv = pair.botStore('announcer');
      expect(await kv.get(`confirmed:${id}:${confirmer}`)).toBe(true);
      expect(await kv.get(`confirmed:${id}:${sales[1]}`)).toBeUndefined();
    });

    it('sends nothing before remind_after has passed', async () => {
      await runJob('remind');
      await pair.settle({ advanceClock: true });
      expect(await remindersAbout(title)).toEqual([]);
    });

    it('reminds each targeted employee who has not confirmed once the delay has passed, by direct message', async () => {
      // the hourly remind job runs by itself when the clock passes its slot
      const before = pair.clock.now();
      await pair.platform.advance(25 * HOUR_S);
      await remindSlotRunAfter(before);
      await pair.settle({ advanceClock: true });
      const reminders = await remindersAbout(title);
      const recipients = reminders.map((m) => Number(m.user_id)).sort((a, b) => a - b);
      expect(recipients).toEqual(sales.filter((id) => id !== confirmer).sort((a, b) => a - b));
      expect(reminders[0]!.text).toMatch(/^Hi \S+, a reminder: the announcement "Fire drill procedure" asks you to confirm/);
    });

    it('never reminds anyone twice', async () => {
      const before = (await remindersAbout(title)).length;
      await runJob('remind');
      const slotBefore = pair.clock.now();
      await pair.platform.advance(HOUR_S);
      // a manual run while the slot's run is going would be skipped (overlap: skip): after it, then
      await remindSlotRunAfter(slotBefore);
      await runJob('remind');
      await pair.settle({ advanceClock: true });
      expect((await remindersAbout(title)).length).toBe(before);
    });
  });
});
