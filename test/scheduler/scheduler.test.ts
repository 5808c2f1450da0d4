import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { InvalidInputError } from '../../src/errors';
import { Scheduler, type ScheduleEntryInput } from '../../src/scheduler';
import type { Store } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { openStore } from '../../src/store';
import { START, recordingJob, settle, sqliteFile } from './scheduler-harness';

const MINUTE = 60_000;
const at = (iso: string): number => Date.parse(iso);
const everyMinute: ScheduleEntryInput = { tenant: 'acme', bot: 'kudos', job: 'tick', cron: '* * * * *', timezone: 'UTC' };

describe('Scheduler on one replica', () => {
  let file: Awaited<ReturnType<typeof sqliteFile>>;
  let clock: AdjustableClock;
  let store: Store;
  const schedulers: Scheduler[] = [];

  beforeEach(async () => {
    file = await sqliteFile();
    clock = new AdjustableClock({ start: START, frozen: true });
    store = await file.open(clock);
  });

  afterEach(async () => {
    for (const s of schedulers.splice(0)) await s.stop();
    await store.close();
    await file.cleanup();
  });

  function make(runJob: (run: import('../../src/scheduler').JobRunRequest) => Promise<void>, schedules: ScheduleEntryInput[]): Scheduler {
    const scheduler = new Scheduler({ clock, store, runJob }, schedules);
    schedulers.push(scheduler);
    return scheduler;
  }

  it('runs a slot once when the clock reaches it, and not before', async () => {
    const job = recordingJob();
    await make(job.runJob, [{ ...everyMinute, cron: '0 9 * * *' }]).start();
    clock.advance(29 * MINUTE + 59_000);
    await settle();
    expect(job.runs).toHaveLength(0);
    clock.advance(1_000);
    await settle();
    expect(job.runs.map((r) => [r.job, new Date(r.slotMs).toISOString(), r.catchUp, r.trigger])).toEqual([['tick', '2026-03-23T09:00:00.000Z', false, 'slot']]);
    clock.advance(MINUTE);
    await settle();
    expect(job.runs).toHaveLength(1);
  });

  it('reads each schedule in its own time zone', async () => {
    const job = recordingJob();
    await make(job.runJob, [
      { ...everyMinute, job: 'berlin', cron: '0 10 * * *', timezone: 'Europe/Berlin' },
      { ...everyMinute, job: 'new-york', cron: '0 10 * * *', timezone: 'America/New_York' },
      { ...everyMinute, job: 'utc', cron: '0 10 * * *', timezone: 'UTC' },
    ]).start();
    clock.set(at('2026-03-23T09:00:00Z')); // 10:00 in Berlin (CET)
    await settle();
    expect(job.runs.map((r) => r.job)).toEqual(['berlin']);
    clock.set(at('2026-03-23T14:00:00Z')); // 10:00 in New York (EDT)
    await settle();
    expect(job.runs.map((r) => r.job)).toEqual(['berlin', 'utc', 'new-york']);
  });

  it('runs the slot the clock was advanced past, once, and records the ones jumped over as skipped-late', async () => {
    const job = recordingJob();
    const scheduler = make(job.runJob, [{ ...everyMinute, cron: '0 * * * *' }]);
    await scheduler.start();
    clock.set(at('2026-03-23T12:10:00Z'));
    await settle();
    expect(job.runs.map((r) => new Date(r.slotMs).toISOString())).toEqual(['2026-03-23T12:00:00.000Z']);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns.map((r) => [r.outcome, new Date(r.slot).toISOString(), r.skipped])).toEqual([
      ['ok', '2026-03-23T12:00:00.000Z', undefined],
      ['skipped-late', '2026-03-23T11:00:00.000Z', 3], // 09:00, 10:00, 11:00
    ]);
  });

  it('refuses a bad schedule and names the field', () => {
    const job = recordingJob();
    expect(() => make(job.runJob, [everyMinute, { ...everyMinute, job: 'x', cron: '99 * * * *' }])).toThrow(InvalidInputError);
    try {
      make(job.runJob, [{ ...everyMinute, timezone: 'Mars/Olympus' }]);
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidInputError).field).toBe('schedules.0.timezone');
    }
    expect(() => make(job.runJob, [everyMinute, everyMinute])).toThrow(/scheduled twice/);
  });
});

/** Two schedulers, each with its own store connection to the same data, on one clock: two replicas. */
async function expectEachSlotOnce(open: (clock: AdjustableClock) => Promise<Store>): Promise<void> {
  const clock = new AdjustableClock({ start: START, frozen: true });
  const stores = [await open(clock), await open(clock)];
  const job = recordingJob();
  // overlap 'allow', so only the slot claim keeps a slot to one run
  const replicas = stores.map((store) => new Scheduler({ clock, store, runJob: job.runJob }, [{ ...everyMinute, overlap: 'allow' }]));
  try {
    for (const replica of replicas) await replica.start();
    await settle(); // the start is exactly on a slot: it runs as the first one
    for (let i = 0; i < 3; i += 1) {
      clock.advance(MINUTE);
      await settle();
    }
    const slots = job.runs.map((r) => new Date(r.slotMs).toISOString());
    expect(slots).toEqual(['2026-03-23T08:30:00.000Z', '2026-03-23T08:31:00.000Z', '2026-03-23T08:32:00.000Z', '2026-03-23T08:33:00.000Z']);
  } finally {
    for (const replica of replicas) await replica.stop();
    for (const store of stores) await store.close();
  }
}

describe('Scheduler on two replicas sharing a store', () => {
  it('runs each slot exactly once (SQLite file)', async () => {
    const file = await sqliteFile();
    try {
      await expectEachSlotOnce(file.open);
    } finally {
      await file.cleanup();
    }
  });

  const url = redisTestUrl();
  it.runIf(url)('runs each slot exactly once (Redis)', async () => {
    const prefix = uniqueRedisPrefix('scheduler');
    try {
      await expectEachSlotOnce((clock) => openStore({ kind: 'redis', url: url!, prefix }, { clock }));
    } finally {
      await deleteRedisPrefix(url!, prefix);
    }
  });
});
