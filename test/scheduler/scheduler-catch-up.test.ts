import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { Scheduler, type ScheduleEntryInput } from '../../src/scheduler';
import type { Store } from '../../src/store';
import { START, recordingJob, recordingLogger, settle, sqliteFile } from './scheduler-harness';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string): number => Date.parse(iso);
// 09:00 UTC daily; START is 08:30 on Monday 2026-03-23
const daily: ScheduleEntryInput = { tenant: 'acme', bot: 'birthday', job: 'greet', cron: '0 9 * * *', timezone: 'UTC', catchUpMs: HOUR };

describe('catch-up at start', () => {
  let file: Awaited<ReturnType<typeof sqliteFile>>;
  let clock: AdjustableClock;
  let store: Store;

  beforeEach(async () => {
    file = await sqliteFile();
    clock = new AdjustableClock({ start: START, frozen: true });
    store = await file.open(clock);
  });

  afterEach(async () => {
    await store.close();
    await file.cleanup();
  });

  /** Runs a replica from START to its first stop, "down" until `restartAt`, then starts it again. */
  async function downUntil(restartAt: number, schedule: ScheduleEntryInput = daily) {
    const first = recordingJob();
    const before = new Scheduler({ clock, store, runJob: first.runJob }, [schedule]);
    await before.start();
    await before.stop();
    clock.set(restartAt);
    const job = recordingJob();
    const logger = recordingLogger();
    const after = new Scheduler({ clock, store, runJob: job.runJob, logger }, [schedule]);
    await after.start();
    await settle();
    return { first, job, logger, after };
  }

  it('runs the latest missed slot once at start when it is within the catch_up window, and skips older ones with their count', async () => {
    const { first, job, logger, after } = await downUntil(at('2026-03-25T09:40:00Z'));
    try {
      expect(first.runs).toEqual([]);
      expect(job.runs.map((r) => [new Date(r.slotMs).toISOString(), r.catchUp, r.trigger])).toEqual([['2026-03-25T09:00:00.000Z', true, 'catch-up']]);
      expect(logger.lines.find((l) => l.level === 'warn')?.fields).toMatchObject({ count: 2, latest: '2026-03-24T09:00:00.000Z' });
      const [listing] = await after.listJobs();
      expect(listing?.lastRuns.map((r) => [r.outcome, r.trigger, new Date(r.slot).toISOString(), r.skipped])).toEqual([
        ['ok', 'catch-up', '2026-03-25T09:00:00.000Z', undefined],
        ['skipped-late', 'catch-up', '2026-03-24T09:00:00.000Z', 2],
      ]);
    } finally {
      await after.stop();
    }
  });

  it('skips and logs a missed slot older than the catch_up window', async () => {
    const { job, logger, after } = await downUntil(at('2026-03-23T10:30:00Z'));
    try {
      expect(job.runs).toEqual([]);
      expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.fields?.count)).toEqual([1]);
      const [listing] = await after.listJobs();
      expect(listing?.lastRuns.map((r) => r.outcome)).toEqual(['skipped-late']);
    } finally {
      await after.stop();
    }
  });

  it('never catches up a schedule without catch_up', async () => {
    const { catchUpMs: _omit, ...noCatchUp } = daily;
    const { job, after } = await downUntil(at('2026-03-23T09:10:00Z'), noCatchUp);
    try {
      expect(job.runs).toEqual([]);
    } finally {
      await after.stop();
    }
  });

  it('runs a caught-up slot once however many replicas start together', async () => {
    const first = new Scheduler({ clock, store, runJob: recordingJob().runJob }, [daily]);
    await first.start();
    await first.stop();
    clock.set(at('2026-03-23T09:20:00Z'));
    const second = await file.open(clock);
    const job = recordingJob();
    const replicas = [store, second].map((s) => new Scheduler({ clock, store: s, runJob: job.runJob }, [daily]));
    try {
      await Promise.all(replicas.map((r) => r.start()));
      await settle();
      expect(job.runs.map((r) => new Date(r.slotMs).toISOString())).toEqual(['2026-03-23T09:00:00.000Z']);
    } finally {
      for (const r of replicas) await r.stop();
      await second.close();
    }
  });

  it('does not call a slot handled by a replica that stayed up missed', async () => {
    const job = recordingJob();
    const up = new Scheduler({ clock, store, runJob: job.runJob }, [daily]);
    await up.start();
    clock.set(at('2026-03-23T09:00:00Z'));
    await settle();
    clock.set(at('2026-03-23T09:30:00Z'));
    const logger = recordingLogger();
    const late = new Scheduler({ clock, store, runJob: job.runJob, logger }, [daily]);
    await late.start();
    await settle();
    expect(job.runs).toHaveLength(1);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
    await up.stop();
    await late.stop();
  });

  it('runs a missed slot almost a day late when catch_up allows two days', async () => {
    const { job, after } = await downUntil(START + 2 * DAY, { ...daily, catchUpMs: 2 * DAY });
    try {
      expect(job.runs.map((r) => new Date(r.slotMs).toISOString())).toEqual(['2026-03-24T09:00:00.000Z']);
    } finally {
      await after.stop();
    }
  });
});
