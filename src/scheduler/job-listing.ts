import type { JobRecords } from './job-records';
import type { RunRecord } from './run-record';
import type { ScheduleEntry } from './schedule-entry';
import { nextSlot } from './slots';

/** One schedule as `intrabot jobs` shows it. */
export interface JobListing {
  schedule: ScheduleEntry;
  /** The next slot after now (ms since the epoch); undefined when the expression never fires again. */
  nextSlot: number | undefined;
  /** The last runs on any replica, newest first (at most `KEPT_RUNS`). */
  lastRuns: RunRecord[];
}

/**
 * The schedules with their next slot after `nowMs` and their last runs, as recorded in the store.
 * A next slot recorded by a runtime whose clock is ahead of `nowMs` (the sandbox's, advanced) wins
 * over the one computed here; a recorded one in the past (the runtime is down) does not.
 *
 * @example
 * const jobs = await listJobs(new JobRecords(store), await new JobRecords(store).schedules(), clock.now());
 */
export async function listJobs(records: JobRecords, schedules: readonly ScheduleEntry[], nowMs: number): Promise<JobListing[]> {
  const listings: JobListing[] = [];
  for (const schedule of schedules) {
    const computed = nextSlot(schedule.cron, schedule.timezone, nowMs);
    const recorded = await records.next(schedule);
    const next = recorded !== undefined && computed !== undefined && recorded > computed ? recorded : computed;
    listings.push({ schedule, nextSlot: next, lastRuns: await records.runs(schedule) });
  }
  return listings;
}
