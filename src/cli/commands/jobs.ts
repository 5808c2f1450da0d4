import { createSystemClock, type Clock } from '../../clock';
import { isIntrabotError } from '../../errors';
import { loadConfig } from '../../runtime/config/config';
import { withRuntimeStore } from '../../runtime/start/open-runtime-store';
import { JobRecords, KEPT_RUNS, listJobs, type JobListing, type RunRecord } from '../../scheduler';
import type { Store } from '../../store';
import type { CliCommand } from '../command';
import { messageOf } from '../output';
import { localTime } from '../time';
import { readFlags } from '../read-flags';

/** What `intrabot jobs` reads and writes; the CLI passes the process, tests their own. */
export interface JobsCommandDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  clock?: Clock;
}

const USAGE = 'jobs [--json] [--runs N]';
const DEFAULT_RUNS = 3;

interface JobsArgs {
  json: boolean;
  runs: number;
}

/** The arguments, or what is wrong with them (naming the flag or value). */
function readArgs(args: string[]): JobsArgs | string {
  const parsed = readFlags(args, { json: { type: 'boolean', default: false }, runs: { type: 'string' } });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length > 0) return `unknown argument "${positionals[0]}"`;
  const runs = values.runs === undefined ? DEFAULT_RUNS : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 0 || runs > KEPT_RUNS) return `--runs: a whole number from 0 to ${KEPT_RUNS}`;
  return { json: values.json ?? false, runs };
}

/**
 * `2026-03-23 09:00:00` in the schedule's zone: the tenant's unless the manifest gives the schedule
 * its own. The TZ column names it, so the slots read as the cron expression beside them.
 */
function formatTime(ms: number | undefined, timezone: string): string {
  return ms === undefined ? '-' : localTime(ms, timezone);
}

function describeRun(run: RunRecord, timezone: string): string {
  const took = run.finished === undefined ? '' : ` in ${run.finished - run.started} ms`;
  const skipped = run.skipped === undefined ? '' : ` (${run.skipped}${run.capped ? '+' : ''} slots)`;
  const error = run.error ? `: ${run.error}` : '';
  return `${formatTime(run.slot, timezone)}  ${run.trigger.padEnd(8)}  ${run.outcome}${skipped}${took}${error}`;
}

/** The schedules as a table, each followed by its last `runs` runs. */
export function renderJobs(listings: readonly JobListing[], runs: number): string {
  if (listings.length === 0) return 'No scheduled jobs recorded yet (the runtime records them when it starts).\n';
  const header = ['TENANT', 'BOT', 'JOB', 'CRON', 'TZ', 'NEXT', 'LAST'];
  const rows = listings.map(({ schedule, nextSlot, lastRuns }) => [
    schedule.tenant,
    schedule.bot,
    schedule.job,
    schedule.cron,
    schedule.timezone,
    formatTime(nextSlot, schedule.timezone),
    lastRuns[0] ? `${lastRuns[0].outcome} (${formatTime(lastRuns[0].slot, schedule.timezone)})` : 'never',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(header)];
  listings.forEach((listing, i) => {
    out.push(line(rows[i] ?? []));
    for (const run of listing.lastRuns.slice(0, runs)) out.push(`    ${describeRun(run, listing.schedule.timezone)}`);
  });
  return `${out.join('\n')}\n`;
}

async function readListings(store: Store, clock: Clock): Promise<JobListing[]> {
  const records = new JobRecords(store);
  return listJobs(records, await records.schedules(), clock.now());
}

/** `intrabot jobs`: the schedules the runtime recorded in the store, with next and last runs. */
export function createJobsCommand(deps: JobsCommandDeps): CliCommand {
  return {
    name: 'jobs',
    usage: USAGE,
    summary: 'List scheduled jobs with their next slot and last runs (from the store).',
    async run(args) {
      const parsed = readArgs(args);
      if (typeof parsed === 'string') {
        deps.stderr(`intrabot jobs: ${parsed}\nUsage: intrabot ${USAGE} (N from 0 to ${KEPT_RUNS})\n`);
        return 2;
      }
      try {
        const config = loadConfig({ env: deps.env, cwd: deps.cwd });
        const clock = deps.clock ?? createSystemClock();
        // listing must not create a database where the runtime never ran: no store lists no jobs
        const listings = (await withRuntimeStore(config, clock, deps.env, (store) => readListings(store, clock))) ?? [];
        deps.stdout(parsed.json ? `${JSON.stringify(listings, null, 2)}\n` : renderJobs(listings, parsed.runs));
        return 0;
      } catch (error) {
        deps.stderr(`intrabot jobs: ${isIntrabotError(error) || error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
    },
  };
}

export const command: CliCommand = createJobsCommand({
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
