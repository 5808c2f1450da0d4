import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { Store } from '../store';
import type { JobRecords } from './job-records';
import type { RunOutcome, RunRecord, RunTrigger } from './run-record';
import { scheduleId, type ScheduleEntry } from './schedule-entry';
import { JobAbortedError } from './scheduler-errors';
import { keepAlive } from '../clock/keep-alive';
import { TimeLimitError, withTimeLimit } from '../clock/time-limit';
import { runningKey } from './slots';
import type { TraceContext } from '../tracing/spans';
import { traceJob } from '../tracing/trace-sites';
import { tracingOn } from '../tracing/tracing-switch';

/** What the scheduler hands the runtime for one run of a job. */
export interface JobRunRequest {
  tenant: string;
  bot: string;
  job: string;
  /** The cron slot this run is for (ms since the epoch); for a manual run, when it was asked for. */
  slotMs: number;
  /** True when the slot was missed during downtime and runs late, at start. */
  catchUp: boolean;
  trigger: RunTrigger;
  /** Aborted when the schedule's time limit passes, or when the scheduler stops and stops waiting. */
  signal: AbortSignal;
  /** Where the job's `ctx.progress` goes (`intrabot run` shows it as its progress line). */
  onProgress?: (text: string) => void;
  /** The run's trace context (its `job <name>` span), when tracing is on. */
  trace?: TraceContext | undefined;
}

/** What a run is given beside its job and slot: where its progress goes, and its trace context. */
interface RunGiven {
  onProgress?: ((text: string) => void) | undefined;
  trace?: TraceContext | undefined;
}

/** The scheduler's log: the runtime's logger (fields first, as pino). */
export type SchedulerLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/** What a job's run tells of itself: how many sends it queued (a scheduled run that queued none is logged at debug level). */
export interface JobRunResult {
  sent: number;
}

export interface JobRunnerDeps {
  clock: Clock;
  store: Pick<Store, 'claims'>;
  records: JobRecords;
  logger: SchedulerLogger;
  runJob: (run: JobRunRequest) => Promise<JobRunResult | void>;
  /** How long the cross-replica "running" claim of an `overlap: skip` job lasts between renewals. */
  leaseMs: number;
}

interface InFlight {
  job: string;
  /** Aborted when the scheduler stops waiting for the run. */
  controller: AbortController;
}

/** What the runner needs of a job: who it is, its overlap policy and its time limit (a schedule, or a job run on demand). */
export type RunnableJob = Pick<ScheduleEntry, 'tenant' | 'bot' | 'job' | 'overlap' | 'timeoutMs'>;

const MAX_ERROR_LENGTH = 500;

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}...` : text;
}

/**
 * Runs one job: applies the overlap policy (in this process and, through a leased claim, across
 * replicas), the time limit, and records the run. Never throws: a job's failure is recorded and logged.
 */
export class JobRunner {
  private readonly active = new Map<string, number>();
  private readonly inFlight = new Set<InFlight>();
  /** Runs being handled (job plus recording), so stopping can wait for their records to be written. */
  private readonly handling = new Set<Promise<RunRecord>>();

  constructor(private readonly deps: JobRunnerDeps) {}

  run(entry: RunnableJob, slotMs: number, trigger: RunTrigger, onProgress?: (text: string) => void): Promise<RunRecord> {
    const handled = tracingOn()
      ? traceJob({ ...entry, slotMs, trigger }, (trace) => this.handle(entry, slotMs, trigger, { onProgress, trace }))
      : this.handle(entry, slotMs, trigger, { onProgress });
    this.handling.add(handled);
    // handle() records failures instead of throwing; were it to throw, the caller gets it from `handled`
    void handled.finally(() => this.handling.delete(handled)).catch(() => undefined);
    return handled;
  }

  private async handle(entry: RunnableJob, slotMs: number, trigger: RunTrigger, given: RunGiven): Promise<RunRecord> {
    const base = { tenant: entry.tenant, bot: entry.bot, job: entry.job, slot: slotMs, trigger, started: this.deps.clock.now() };
    // counted before the first await, so two slots firing together in this process see each other
    if (!this.enter(entry)) return this.skipOverlap(base);
    try {
      const running = runningKey(entry.tenant, entry.bot, entry.job);
      // a lock, not a mark: a run whose process died frees it (at once where that can be seen)
      if (entry.overlap === 'skip' && !(await this.deps.store.claims.claim(running, this.deps.leaseMs, { lock: true }))) {
        return await this.skipOverlap(base);
      }
      return await this.execute(entry, base, given);
    } catch (error) {
      // only the store can fail here (the job's own errors are caught in execute)
      this.deps.logger.error({ ...this.fields(base), error: messageOf(error) }, 'scheduler could not run a job');
      return { ...base, outcome: 'failed', finished: this.deps.clock.now(), error: messageOf(error) };
    } finally {
      this.leave(entry);
    }
  }

  /** Waits for runs still going, up to `boundMs` on the clock, then aborts what is left and waits for its records. */
  async drain(boundMs: number): Promise<void> {
    if (this.handling.size === 0) return;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = this.deps.clock.setTimeout(resolve, boundMs);
    });
    await Promise.race([Promise.allSettled([...this.handling]), bound]);
    if (timer) this.deps.clock.clearTimeout(timer);
    for (const left of this.inFlight) left.controller.abort(new JobAbortedError(left.job));
    // aborted runs end at once; their records are written before the caller closes the store
    await Promise.allSettled([...this.handling]);
  }

  private enter(entry: RunnableJob): boolean {
    const id = scheduleId(entry);
    const count = this.active.get(id) ?? 0;
    if (entry.overlap === 'skip' && count > 0) return false;
    this.active.set(id, count + 1);
    return true;
  }

  private leave(entry: RunnableJob): void {
    const id = scheduleId(entry);
    const count = (this.active.get(id) ?? 1) - 1;
    if (count > 0) this.active.set(id, count);
    else this.active.delete(id);
  }

  private async skipOverlap(base: Omit<RunRecord, 'outcome'>): Promise<RunRecord> {
    this.deps.logger.info(this.fields(base), 'job still running: slot skipped (overlap: skip)');
    const record: RunRecord = { ...base, outcome: 'skipped-overlap', finished: base.started };
    await this.save(record);
    return record;
  }

  private async execute(entry: RunnableJob, base: Omit<RunRecord, 'outcome'>, { onProgress, trace }: RunGiven): Promise<RunRecord> {
    const key = await this.save({ ...base, outcome: 'running' });
    const stopLease = entry.overlap === 'skip' ? this.keepLease(entry) : undefined;
    try {
      const { outcome, error, sent } = await this.attempt(entry, base, { onProgress, trace });
      const record: RunRecord = { ...base, outcome, finished: this.deps.clock.now(), ...(error === undefined ? {} : { error }) };
      this.log(record, sent);
      await this.save(record, key);
      return record;
    } finally {
      stopLease?.();
      if (stopLease) await this.deps.store.claims.release(runningKey(entry.tenant, entry.bot, entry.job)).catch(() => false);
    }
  }

  /** Runs the job against its time limit (the only owner of a job's limit); a run the scheduler drains ends at once. */
  private async attempt(
    entry: RunnableJob,
    base: Omit<RunRecord, 'outcome'>,
    { onProgress, trace }: RunGiven,
  ): Promise<{ outcome: RunOutcome; error?: string; sent?: number }> {
    const controller = new AbortController();
    const flight: InFlight = { job: entry.job, controller };
    this.inFlight.add(flight);
    const request = { ...this.fields(base, true), catchUp: base.trigger === 'catch-up', trigger: base.trigger, ...(onProgress ? { onProgress } : {}), trace };
    try {
      // at the time limit the run ends (and an `overlap: skip` job's next slot may start), even if the job ignores its signal
      const result = await withTimeLimit(this.deps.clock, entry.timeoutMs, `job "${entry.job}"`, (signal) => this.deps.runJob({ ...request, signal }), {
        signal: controller.signal,
      });
      return { outcome: 'ok', ...(result ? { sent: result.sent } : {}) };
    } catch (error) {
      return { outcome: error instanceof TimeLimitError ? 'timeout' : 'failed', error: messageOf(error) };
    } finally {
      this.inFlight.delete(flight);
    }
  }

  /** Renews the "running" claim while the job runs, so a long job keeps other replicas from overlapping. */
  private keepLease(entry: RunnableJob): () => void {
    const { clock, store, leaseMs } = this.deps;
    return keepAlive(clock, leaseMs / 3, () => store.claims.renew(runningKey(entry.tenant, entry.bot, entry.job), leaseMs));
  }

  /** Records a run; returns its key (the end of a run replaces its start), undefined when the store failed. */
  private async save(record: RunRecord, key?: string): Promise<string | undefined> {
    try {
      return await this.deps.records.saveRun(record, key);
    } catch (error) {
      this.deps.logger.error({ ...this.fields(record), error: messageOf(error) }, 'scheduler could not record a run');
      return undefined;
    }
  }

  /** A scheduled run that queued no send (a poll that found nothing new) is logged at debug level, so frequent schedules keep the log quiet. */
  private log(record: RunRecord, sent: number | undefined): void {
    const fields = {
      ...this.fields(record),
      outcome: record.outcome,
      ms: (record.finished ?? record.started) - record.started,
      ...(sent === undefined ? {} : { sent }),
    };
    if (record.outcome === 'ok' && sent === 0 && record.trigger === 'slot') this.deps.logger.debug(fields, 'job finished, nothing sent');
    else if (record.outcome === 'ok') this.deps.logger.info(fields, 'job finished');
    else if (record.outcome === 'timeout') this.deps.logger.warn({ ...fields, error: record.error }, 'job timed out');
    else this.deps.logger.error({ ...fields, error: record.error }, 'job failed');
  }

  private fields(
    run: Pick<RunRecord, 'tenant' | 'bot' | 'job' | 'slot'>,
    raw = false,
  ): { tenant: string; bot: string; job: string; slotMs: number } & Record<string, unknown> {
    const base = { tenant: run.tenant, bot: run.bot, job: run.job, slotMs: run.slot };
    return raw ? base : { ...base, slot: new Date(run.slot).toISOString() };
  }
}
