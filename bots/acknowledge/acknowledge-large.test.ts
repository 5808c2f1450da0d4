import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, startPair } from 'intrabot/testing';

const HOUR_S = 3600;
/** Monday 1 June 2026, 10:00 in Berlin: in working hours. */
const MONDAY_10 = Date.parse('2026-06-01T10:00:00+02:00');

/** A job as `GET /_admin/jobs` lists it (`intrabot jobs`). */
interface Job {
  schedule: { job: string };
  lastRuns: { trigger: string; outcome: string; slot: number }[];
}

interface StoredRound {
  audience: { pages: number; complete: boolean };
  remindedRound: number;
  remindPage: number;
}

// A company-wide announcement to the sandbox's `large` seed, 10,000 employees and more, over real
// HTTP. It checks the paging, the per-run cap and the resumption after a restart, not the delivery
// of every message (the outbox paces those at about one a second: hours of sandbox time).
describe('acknowledge over the large seed', () => {
  let pair: Pair;
  let id: number;

  const round = async () => (await pair.botStore('acknowledge').get(`round:${id}`)) as StoredRound;
  const sample = async (userId: number) => pair.botStore('acknowledge').get(`reminded:${id}:${userId}`);
  /** The reminders the stored pages before `page` record. */
  const remindedBefore = async (page: number) => {
    let count = 0;
    for (let p = 0; p < page; p++) {
      for (const user of (await pair.botStore('acknowledge').get(`audience:${id}:${p}`)) as { id: number }[]) if (await sample(user.id)) count++;
    }
    return count;
  };

  beforeAll(async () => {
    pair = await startPair({ seed: 'large', bots: ['acknowledge'], botsDir: fileURLToPath(new URL('..', import.meta.url)), start: MONDAY_10 });
    const refs = await pair.refs();
    // reading 200 pages at 60 requests a minute is minutes of the shared clock, not this test's subject
    await pair.platform.settings({ rate_limit_per_minute: 100_000 });
    const created = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/announcements', {
      title: 'New travel policy',
      body: 'Please read the new travel policy and confirm.',
      groups: [],
    });
    id = created.data.id;
    await pair.platform.employeePost(refs.managers.Sales!, { wall_id: refs.company_wall_id, body: `/broadcast ${id}` });
    await pair.settle({ advanceClock: true });
  }, 60_000);
  afterAll(async () => pair?.close(), 60_000);

  it('reads the audience page by page, queues at most per_run a run, and carries on after a restart without doubling', async () => {
    const before = pair.clock.now();
    await pair.platform.advance(25 * HOUR_S);
    // the scheduler runs the slot the clock passed by itself
    await pair.platform.waitFor(
      async () => {
        const jobs = (await (await fetch(`${pair.runtime.inspect().url}/_admin/jobs`)).json()) as { data: Job[] };
        return jobs.data.find((j) => j.schedule.job === 'remind')?.lastRuns.find((r) => r.trigger === 'slot' && r.slot > before);
      },
      (run) => run !== undefined && run.outcome !== 'running',
      180_000,
    );
    const first = await round();
    expect(first.audience.complete).toBe(true);
    expect(first.audience.pages).toBeGreaterThanOrEqual(200);
    // 500 a run, rounded up to a whole page
    const firstRun = await remindedBefore(first.remindPage);
    expect(firstRun).toBeGreaterThanOrEqual(500);
    expect(firstRun).toBeLessThan(550);
    expect(await remindedBefore(first.audience.pages)).toBe(firstRun);

    // down two minutes of the shared clock: the new process assumes the platform's 60 a minute until an
    // answer says otherwise, and the shared budget still holds the first run's 200-odd reads of the last
    // minute, so a restart within it provisions only once that minute is out (60 s of real time)
    await pair.restartRuntime(() => pair.platform.advance(2 * 60));
    await pair.runJob('acknowledge', 'remind');
    const second = await round();
    const bothRuns = await remindedBefore(second.remindPage);
    expect(bothRuns - firstRun).toBeGreaterThanOrEqual(500);
    expect(await remindedBefore(second.audience.pages)).toBe(bothRuns);
    const firstPage = (await pair.botStore('acknowledge').get(`audience:${id}:0`)) as { id: number }[];
    expect(await sample(firstPage[0]!.id)).toEqual({ count: 1, round: 1 });
  }, 240_000);
});
