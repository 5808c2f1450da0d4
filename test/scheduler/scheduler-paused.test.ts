import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { Scheduler, type ScheduleEntryInput } from '../../src/scheduler';
import type { Store } from '../../src/store';
import { START, recordingJob, settle, sqliteFile } from './scheduler-harness';

const HOUR = 3_600_000;
// 09:00 UTC daily, half an hour after START; a missed slot runs when at most an hour late
const daily: ScheduleEntryInput = { tenant: 'acme', bot: 'birthday', job: 'greet', cron: '0 9 * * *', timezone: 'UTC', catchUpMs: HOUR };
const NINE = Date.parse('2026-03-23T09:00:00Z');

describe('a paused bot in the scheduler', () => {
  let file: Awaited<ReturnType<typeof sqliteFile>>;
  let clock: AdjustableClock;
  let store: Store;
  const paused = new Set<string>();
  const isPaused = async (tenant: string, bot: string): Promise<boolean> => paused.has(`${tenant}/${bot}`);

  beforeEach(async () => {
    file = await sqliteFile();
    clock = new AdjustableClock({ start: START, frozen: true });
    store = await file.open(clock);
    paused.clear();
  });
  afterEach(async () => {
    await store.close();
    await file.cleanup();
  });

  it('does not run a slot while the bot is paused, and runs it once on resume when within catch_up', async () => {
    const job = recordingJob();
    const scheduler = new Scheduler({ clock, store, runJob: job.runJob, isPaused }, [daily]);
    await scheduler.start();
    paused.add('acme/birthday');
    clock.set(NINE + 10 * 60_000);
    await settle();
    expect(job.runs).toEqual([]);
    paused.delete('acme/birthday');
    await scheduler.resumed('acme', 'birthday');
    await settle();
    expect(job.runs.map((r) => r.slotMs)).toEqual([NINE]);
    await scheduler.resumed('acme', 'birthday');
    await settle();
    expect(job.runs).toHaveLength(1);
    await scheduler.stop();
  });

  it('skips a slot missed while paused beyond catch_up, recording it as skipped-late', async () => {
    const job = recordingJob();
    const scheduler = new Scheduler({ clock, store, runJob: job.runJob, isPaused }, [daily]);
    await scheduler.start();
    paused.add('acme/birthday');
    clock.set(NINE + 2 * HOUR);
    await settle();
    paused.delete('acme/birthday');
    await scheduler.resumed('acme', 'birthday');
    await settle();
    expect(job.runs).toEqual([]);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns[0]).toMatchObject({ slot: NINE, outcome: 'skipped-late', trigger: 'catch-up' });
    await scheduler.stop();
  });

  it('does not catch up at start while the bot is paused, and refuses a run on demand naming the pause', async () => {
    const first = new Scheduler({ clock, store, runJob: recordingJob().runJob, isPaused }, [daily]);
    await first.start();
    await first.stop();
    paused.add('acme/birthday');
    clock.set(NINE + 10 * 60_000);
    const job = recordingJob();
    const scheduler = new Scheduler({ clock, store, runJob: job.runJob, isPaused }, [daily]);
    await scheduler.start();
    await settle();
    expect(job.runs).toEqual([]);
    await expect(scheduler.runNow('acme', 'birthday', 'greet')).rejects.toThrow(/paused/);
    paused.delete('acme/birthday');
    await scheduler.resumed('acme', 'birthday');
    await settle();
    expect(job.runs.map((r) => r.slotMs)).toEqual([NINE]);
    await scheduler.stop();
  });
});
