import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

const API = '/api/open/v1';
const HOUR_S = 3600;
/** Monday 1 June 2026, 10:00 in Berlin (the sandbox's zone): in working hours. */
const MONDAY_10 = Date.parse('2026-06-01T10:00:00+02:00');
const TITLE = 'Fire drill procedure';

/** A job as `GET /_admin/jobs` lists it (`intrabot jobs`). */
interface Job {
  schedule: { job: string };
  lastRuns: { trigger: string; outcome: string; slot: number }[];
}

interface Message {
  user_id?: number;
  text?: string;
  media?: { url?: string; type?: string }[];
  [key: string]: unknown;
}

// End to end, against the sandbox: the main path. The rules in detail: acknowledge-rounds.test.ts.
describe('acknowledge bot', () => {
  let pair: Pair;
  let refs: SeedRefs;
  let announcementId: number;
  let manager: number;
  let trackPost: { id: number };
  let sales: number[];

  const directMessages = async () => (await pair.platform.messages({ kind: 'direct' })) as Message[];
  /** Until the remind job's run for a cron slot after `after` has finished (the scheduler runs it once the clock passes the slot). */
  const remindSlotRunAfter = (after: number) =>
    pair.platform.waitFor(
      async () => {
        const jobs = (await (await fetch(`${pair.runtime.inspect().url}/_admin/jobs`)).json()) as { data: Job[] };
        return jobs.data.find((j) => j.schedule.job === 'remind')?.lastRuns.find((r) => r.trigger === 'slot' && r.outcome === 'ok' && r.slot > after);
      },
      (run) => run !== undefined,
    );

  beforeAll(async () => {
    // botsDir: this folder's parent, so the test runs from anywhere (and in a copy of the folder)
    pair = await startPair({ bots: ['acknowledge'], botsDir: fileURLToPath(new URL('..', import.meta.url)), start: MONDAY_10 });
    refs = await pair.refs();
    const members = await pair.platform.request<{ data: { id: number; type: string }[] }>('GET', `${API}/users?group_id=${refs.departments.Sales}&per_page=50`);
    sales = members.data.filter((u) => u.type === 'default').map((u) => u.id);
    // confirmable announcements come from the admin interface (spec: Announcements: the API cannot create them)
    const created = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/announcements', {
      title: TITLE,
      body: 'Please read where to gather during a fire drill, and confirm that you have.',
      groups: [refs.departments.Sales],
    });
    announcementId = created.data.id;
    await pair.platform.request('POST', `/_sandbox/announcements/${announcementId}/confirm`, { user_id: sales[0] });
    manager = refs.managers.Sales!;
    trackPost = await pair.platform.employeePost(manager, { wall_id: refs.department_walls.Sales!, body: `/broadcast ${announcementId}` });
    await pair.settle({ advanceClock: true });
  });
  afterAll(async () => pair?.close());

  it('tracks the confirmable announcement a manager names with /broadcast, answering how', async () => {
    const comments = await pair.platform.commentsOn(trackPost.id);
    expect(comments.map((c) => c.body)).toEqual([
      expect.stringMatching(new RegExp(`^Tracking "${TITLE}" \\(${announcementId}\\): whoever has not confirmed gets up to 2 reminders`)),
    ]);
    expect(await pair.botStore('acknowledge').get('rounds')).toEqual([announcementId]);
  });

  it('keeps the confirmation that announcement.confirmed brings', async () => {
    await pair.platform.request('POST', `/_sandbox/announcements/${announcementId}/confirm`, { user_id: sales[1] });
    await pair.settle({ advanceClock: true });
    expect(await pair.botStore('acknowledge').get(`confirmed:${announcementId}:${sales[1]}`)).toEqual(expect.any(String));
  });

  it('reminds each employee of the group who has not confirmed (before or after /broadcast) once remind_after has passed, by DM, once', async () => {
    const before = pair.clock.now();
    await pair.platform.advance(25 * HOUR_S); // Tuesday 11:00
    await remindSlotRunAfter(before);
    await pair.settle({ advanceClock: true });
    const reminders = (await directMessages()).filter((m) => String(m.text).includes(`the announcement "${TITLE}" asks you to confirm`));
    expect(reminders.map((m) => Number(m.user_id)).sort((a, b) => a - b)).toEqual(sales.slice(2).sort((a, b) => a - b));
    // the next half-hourly run sends none again
    const later = pair.clock.now();
    await pair.platform.advance(HOUR_S);
    await remindSlotRunAfter(later);
    await pair.settle({ advanceClock: true });
    expect((await directMessages()).filter((m) => String(m.text).includes(`the announcement "${TITLE}" asks you to confirm`))).toHaveLength(reminders.length);
  });

  it('sends the report on /broadcast report to the manager who asked, with the CSV as a document', async () => {
    await pair.platform.employeePost(manager, { wall_id: refs.department_walls.Sales!, body: `/broadcast report ${announcementId}` });
    const [report] = await pair.platform.waitFor(
      async () => (await directMessages()).filter((m) => m.user_id === manager && String(m.text).startsWith(`Report on "${TITLE}"`)),
      (found) => found.length === 1,
    );
    expect(report!.text).toContain(`• sent to ${sales.length} employees\n• confirmed: 2 (`);
    expect(report!.text).toContain(`• reminded: ${sales.length - 2} employees, ${sales.length - 2} reminders in all`);
    expect(report!.media).toEqual([expect.objectContaining({ type: 'document', mime_type: 'text/csv' })]);
    // the platform downloaded the CSV from the runtime's signed link; it is still there to read
    const csv = await (await fetch(report!.media![0]!.url!)).text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('user_id,name,email,confirmed,confirmed_at,reminders');
    expect(lines).toHaveLength(sales.length + 1);
    expect(lines.find((l) => l.startsWith(`${sales[0]},`))).toMatch(/,yes,\S+,0$/);
  });
});
