import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobsCommand } from '../../src/cli/commands/jobs';
import { AdjustableClock } from '../../src/clock';
import { Scheduler } from '../../src/scheduler';
import { openStore, sqliteStorePath } from '../../src/store';
import { START, recordingJob, settle } from './scheduler-harness';

describe('intrabot jobs', () => {
  let dir: string;
  let out: string;
  let err: string;
  let clock: AdjustableClock;

  beforeEach(async () => {
    clock = new AdjustableClock({ start: START - 30_000, frozen: true });
    dir = await mkdtemp(join(tmpdir(), 'intrabot-jobs-cli-'));
    out = '';
    err = '';
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const run = (args: string[]): Promise<number> =>
    createJobsCommand({ env: { INTRABOT_DATA_DIR: dir }, cwd: dir, clock, stdout: (t) => void (out += t), stderr: (t) => void (err += t) }).run(args);

  async function recordSomeRuns(): Promise<void> {
    const store = await openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock });
    let calls = 0;
    const job = recordingJob(async () => {
      calls += 1;
      if (calls === 2) throw new Error('wall not found');
    });
    const scheduler = new Scheduler({ clock, store, runJob: job.runJob }, [
      { tenant: 'sandbox', bot: 'digest', job: 'weekly', cron: '0 9 * * MON', timezone: 'Europe/Berlin' },
      { tenant: 'sandbox', bot: 'alerts', job: 'tick', cron: '* * * * *', timezone: 'UTC' },
    ]);
    await scheduler.start();
    clock.advance(30_000);
    await settle();
    await scheduler.runNow('sandbox', 'digest', 'weekly');
    await scheduler.stop();
    await store.close();
  }

  it('lists the schedules the runtime recorded, with next slot and last runs', async () => {
    await recordSomeRuns();
    expect(await run([])).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^TENANT\s+BOT\s+JOB\s+CRON\s+TZ\s+NEXT\s+LAST$/);
    const digest = lines.find((l) => l.includes('weekly'));
    // next Monday 09:00 Berlin is 2026-03-30 (CEST by then)
    expect(digest).toMatch(/sandbox\s+digest\s+weekly\s+0 9 \* \* MON\s+Europe\/Berlin\s+2026-03-30 09:00:00\s+failed/);
    expect(out).toMatch(/2026-03-23 09:30:00 {2}manual {4}failed in \d+ ms: wall not found/);
    expect(lines.find((l) => l.includes(' tick '))).toMatch(/2026-03-23 08:31:00\s+ok \(2026-03-23 08:30:00\)/);
  });

  /** Restarts with only the `tick` schedule: `digest` is either kept (it failed to load) or gone. */
  async function restartWithoutDigest(digestFailedToLoad: boolean): Promise<void> {
    const store = await openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock });
    const scheduler = new Scheduler(
      { clock, store, runJob: recordingJob(async () => undefined).runJob, keepRecordsOf: (bot) => digestFailedToLoad && bot === 'digest' },
      [{ tenant: 'sandbox', bot: 'alerts', job: 'tick', cron: '* * * * *', timezone: 'UTC' }],
    );
    await scheduler.start();
    await scheduler.stop();
    await store.close();
  }

  // issue #15, item 3: one start with a bot that failed to load showed its job as `LAST never`
  it('keeps the schedules and runs of a bot that failed to load, and forgets those of a bot removed', async () => {
    await recordSomeRuns();
    await restartWithoutDigest(true);
    expect(await run([])).toBe(0);
    expect(out.split('\n').find((l) => l.includes('weekly'))).toMatch(/sandbox\s+digest\s+weekly\s.*failed/);
    out = '';
    await restartWithoutDigest(false);
    expect(await run([])).toBe(0);
    expect(out).not.toContain('weekly');
  });

  it('prints the listings as JSON with --json', async () => {
    await recordSomeRuns();
    expect(await run(['--json'])).toBe(0);
    const listings = JSON.parse(out) as Array<{ schedule: { job: string }; nextSlot: number; lastRuns: Array<{ outcome: string; trigger: string }> }>;
    const tick = listings.find((l) => l.schedule.job === 'tick');
    expect(tick?.nextSlot).toBe(START + 60_000);
    expect(tick?.lastRuns.map((r) => [r.trigger, r.outcome])).toEqual([['slot', 'ok']]);
  });

  it('says nothing is recorded, and creates no database, where the runtime never ran', async () => {
    expect(await run([])).toBe(0);
    expect(out).toContain('No scheduled jobs recorded yet');
    expect(existsSync(sqliteStorePath(dir))).toBe(false);
  });

  it('refuses unknown arguments with a usage error', async () => {
    expect(await run(['--bogus'])).toBe(2);
    expect(await run(['--runs', '99'])).toBe(2);
    expect(err).toContain('Usage: intrabot jobs');
  });
});
