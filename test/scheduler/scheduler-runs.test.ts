import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { IntrabotError } from '../../src/errors';
import { KEPT_RUNS, Scheduler, runningKey, type JobRunRequest, type JobRunResult, type ScheduleEntryInput } from '../../src/scheduler';
import type { SqliteStore } from '../../src/store/sqlite';
import type { Store } from '../../src/store';
import { START, gate, recordingJob, recordingLogger, settle, sqliteFile } from './scheduler-harness';

const MINUTE = 60_000;
const everyMinute: ScheduleEntryInput = { tenant: 'acme', bot: 'reports', job: 'sync', cron: '* * * * *', timezone: 'UTC' };
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('Scheduler runs', () => {
  let file: Awaited<ReturnType<typeof sqliteFile>>;
  let clock: AdjustableClock;
  let store: Store;
  const started: Scheduler[] = [];

  beforeEach(async () => {
    file = await sqliteFile();
    // 30 s before a slot, so the start is not on one
    clock = new AdjustableClock({ start: START - 30_000, frozen: true });
    store = await file.open(clock);
  });

  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
    await store.close();
    await file.cleanup();
  });

  async function startScheduler(runJob: (run: JobRunRequest) => Promise<JobRunResult | void>, schedule: ScheduleEntryInput = everyMinute, on: Store = store) {
    const logger = recordingLogger();
    const scheduler = new Scheduler({ clock, store: on, runJob, logger }, [schedule]);
    started.push(scheduler);
    await scheduler.start();
    return { scheduler, logger };
  }

  async function nextMinute(): Promise<void> {
    clock.advance(MINUTE);
    await settle();
  }

  it('skips a slot while the previous run is still going (overlap: skip) and records it', async () => {
    const hold = gate();
    const job = recordingJob(() => hold.promise);
    const { scheduler } = await startScheduler(job.runJob);
    clock.advance(30_000);
    await settle();
    await nextMinute();
    expect(job.runs).toHaveLength(1);
    const [during] = await scheduler.listJobs();
    expect(during?.lastRuns.map((r) => [iso(r.slot), r.outcome])).toEqual([
      ['2026-03-23T08:31:00.000Z', 'skipped-overlap'],
      ['2026-03-23T08:30:00.000Z', 'running'],
    ]);
    hold.open();
    await settle();
    await nextMinute();
    expect(job.runs).toHaveLength(2);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns.map((r) => [iso(r.slot), r.outcome])).toEqual([
      ['2026-03-23T08:32:00.000Z', 'ok'], // the gate is open: it ends at once
      ['2026-03-23T08:31:00.000Z', 'skipped-overlap'],
      ['2026-03-23T08:30:00.000Z', 'ok'],
    ]);
  });

  it('skips a slot while the previous run is going on another replica', async () => {
    const hold = gate();
    const job = recordingJob(() => hold.promise);
    const other = await file.open(clock);
    try {
      await startScheduler(job.runJob);
      await startScheduler(job.runJob, everyMinute, other);
      clock.advance(30_000);
      await settle();
      for (let i = 0; i < 3; i += 1) await nextMinute();
      expect(job.runs.map((r) => iso(r.slotMs))).toEqual(['2026-03-23T08:30:00.000Z']);
      hold.open();
      await settle();
      await nextMinute();
      expect(job.runs.map((r) => iso(r.slotMs))).toEqual(['2026-03-23T08:30:00.000Z', '2026-03-23T08:34:00.000Z']);
    } finally {
      hold.open();
      for (const s of started.splice(0)) await s.stop();
      await other.close();
    }
  });

  it("runs the next slot when the previous run's replica died mid-run (its running claim is a lock, not a mark)", async () => {
    // the row a process killed mid-run leaves: its running claim, minutes of lease left
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    (store as SqliteStore).db
      .prepare('INSERT INTO claims (key, owner, expires_at) VALUES (?, ?, ?)')
      .run(runningKey('acme', 'reports', 'sync'), `${hostname()}/${gone}/${randomUUID()}`, clock.now() + 10 * MINUTE);
    const job = recordingJob();
    await startScheduler(job.runJob);
    await nextMinute();
    expect(job.runs.map((r) => iso(r.slotMs))).toEqual(['2026-03-23T08:30:00.000Z']);
  });

  it('starts the next run while one is going when overlap is allowed', async () => {
    const hold = gate();
    const job = recordingJob(() => hold.promise);
    await startScheduler(job.runJob, { ...everyMinute, overlap: 'allow' });
    clock.advance(30_000);
    await settle();
    await nextMinute();
    expect(job.runs).toHaveLength(2);
    hold.open();
  });

  it('aborts the signal at the time limit and records a timeout', async () => {
    const job = recordingJob((run) => new Promise((resolve) => run.signal.addEventListener('abort', () => resolve())));
    const { scheduler, logger } = await startScheduler(job.runJob, { ...everyMinute, timeoutMs: 10_000 });
    clock.advance(30_000);
    await settle();
    expect(job.runs[0]?.signal.aborted).toBe(false);
    clock.advance(10_000);
    await settle();
    expect(job.runs[0]?.signal.aborted).toBe(true);
    expect(job.runs[0]?.signal.reason).toBeInstanceOf(IntrabotError);
    expect((job.runs[0]?.signal.reason as IntrabotError).code).toBe('handler_timeout');
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns[0]).toMatchObject({ outcome: 'timeout', finished: START + 10_000, error: expect.stringContaining('10000 ms') });
    expect(logger.lines.some((l) => l.level === 'warn' && l.message === 'job timed out')).toBe(true);
  });

  it('records a throwing job as failed and still runs the next slot', async () => {
    let calls = 0;
    const job = recordingJob(async () => {
      calls += 1;
      if (calls === 1) throw new Error('directory unavailable');
    });
    const { scheduler, logger } = await startScheduler(job.runJob);
    clock.advance(30_000);
    await settle();
    await nextMinute();
    expect(job.runs).toHaveLength(2);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns.map((r) => [r.outcome, r.error])).toEqual([
      ['ok', undefined],
      ['failed', 'directory unavailable'],
    ]);
    expect(logger.lines.find((l) => l.level === 'error')?.fields).toMatchObject({ job: 'sync', error: 'directory unavailable' });
  });

  it('logs a scheduled run that queued no send at debug level, and runs that sent or were asked for at info (frequent polls keep the log quiet)', async () => {
    let sent = 0;
    const { scheduler, logger } = await startScheduler(async () => ({ sent }));
    const finished = () => logger.lines.filter((l) => l.message.startsWith('job finished')).map((l) => [l.level, l.message, l.fields?.sent]);
    clock.advance(30_000);
    await settle();
    sent = 2;
    await nextMinute();
    sent = 0;
    await scheduler.runNow('acme', 'reports', 'sync');
    expect(finished()).toEqual([
      ['debug', 'job finished, nothing sent', 0],
      ['info', 'job finished', 2],
      ['info', 'job finished', 0],
    ]);
  });

  it('lists each schedule with its next slot and its last runs, newest first, keeping the last 20', async () => {
    const job = recordingJob();
    const { scheduler } = await startScheduler(job.runJob, { ...everyMinute, cron: '*/5 * * * *' });
    let [listing] = await scheduler.listJobs();
    expect({ next: iso(listing?.nextSlot), runs: listing?.lastRuns }).toEqual({ next: '2026-03-23T08:30:00.000Z', runs: [] });
    clock.advance(30_000);
    await settle();
    for (let i = 0; i < KEPT_RUNS + 3; i += 1) {
      clock.advance(5 * MINUTE);
      await settle();
    }
    [listing] = await scheduler.listJobs();
    expect(listing?.schedule).toMatchObject({ tenant: 'acme', bot: 'reports', job: 'sync', cron: '*/5 * * * *', overlap: 'skip' });
    expect(iso(listing?.nextSlot)).toBe(iso(clock.now() + 5 * MINUTE));
    expect(listing?.lastRuns).toHaveLength(KEPT_RUNS);
    expect(iso(listing?.lastRuns[0]?.slot)).toBe(iso(clock.now()));
    expect(iso(listing?.lastRuns.at(-1)?.slot)).toBe(iso(clock.now() - (KEPT_RUNS - 1) * 5 * MINUTE));
  });

  it('runs a job now on request, outside any slot, and records it as manual', async () => {
    const job = recordingJob();
    const { scheduler } = await startScheduler(job.runJob);
    const record = await scheduler.runNow('acme', 'reports', 'sync');
    expect(record).toMatchObject({ trigger: 'manual', outcome: 'ok', slot: clock.now() });
    expect(job.runs.map((r) => r.trigger)).toEqual(['manual']);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns.map((r) => [r.trigger, r.outcome])).toEqual([['manual', 'ok']]);
    await expect(scheduler.runNow('acme', 'reports', 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("suggests the job a misspelt job name is closest to, among the schedules and the bot's own jobs", async () => {
    const scheduler = new Scheduler({ clock, store, runJob: recordingJob().runJob, jobNames: () => ['cleanup'] }, [everyMinute]);
    started.push(scheduler);
    await scheduler.start();
    await expect(scheduler.runNow('acme', 'reports', 'snyc')).rejects.toThrow('bot "reports" on tenant "acme" has no job "snyc" (did you mean "sync"?)');
    await expect(scheduler.runNow('acme', 'reports', 'cleanpu')).rejects.toThrow(/\(did you mean "cleanup"\?\); its jobs are: cleanup, sync$/);
    await expect(scheduler.runNow('acme', 'reports', 'export')).rejects.toThrow(/has no job "export"; its jobs are: cleanup, sync$/);
  });

  it("refuses a run of a bot not deployed here with botProblem's reason, not as an unknown job", async () => {
    const notHere = new Error('bot "birthday" is not deployed to tenant "acme": example bot, not enabled');
    const botProblem = (_tenant: string, bot: string): Error | undefined => (bot === 'reports' ? undefined : notHere);
    const scheduler = new Scheduler({ clock, store, runJob: recordingJob().runJob, botProblem }, [everyMinute]);
    started.push(scheduler);
    await scheduler.start();
    await expect(scheduler.runNow('acme', 'birthday', 'greet')).rejects.toBe(notHere);
    await expect(scheduler.runNow('acme', 'reports', 'greet')).rejects.toThrow('bot "reports" on tenant "acme" has no job "greet"; its jobs are: sync');
  });

  it('waits for running jobs when stopping, and arms no more slots', async () => {
    const hold = gate();
    const job = recordingJob(() => hold.promise);
    const { scheduler } = await startScheduler(job.runJob, { ...everyMinute, overlap: 'allow' });
    clock.advance(30_000);
    await settle();
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    hold.open();
    await stopping;
    await nextMinute();
    expect(job.runs).toHaveLength(1);
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns[0]?.outcome).toBe('ok');
  });

  it('aborts jobs still running when the stop bound passes, and records them', async () => {
    const job = recordingJob(() => new Promise(() => undefined));
    const scheduler = new Scheduler({ clock, store, runJob: job.runJob, stopTimeoutMs: 5_000 }, [everyMinute]);
    await scheduler.start();
    clock.advance(30_000);
    await settle();
    const stopping = scheduler.stop();
    await settle();
    clock.advance(5_000);
    await stopping;
    expect(job.runs[0]?.signal.aborted).toBe(true);
    expect((job.runs[0]?.signal.reason as IntrabotError).code).toBe('job_aborted');
    const [listing] = await scheduler.listJobs();
    expect(listing?.lastRuns[0]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('stopping') });
  });
});
