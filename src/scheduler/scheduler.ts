import type { Clock, TimerHandle } from '../clock';
import { IntrabotError, InvalidInputError } from '../errors';
import { SILENT_LOGGER } from '../log';
import type { Store } from '../store';
import { dueSlots, planCatchUp, type DueSlots } from './catch-up';
import { listJobs, type JobListing } from './job-listing';
import { JobRecords } from './job-records';
import { JobRunner, type JobRunRequest, type JobRunResult, type RunnableJob, type SchedulerLogger } from './job-runner';
import type { RunRecord, RunTrigger } from './run-record';
import { ScheduleEntrySchema, scheduleId, type ScheduleEntry, type ScheduleEntryInput } from './schedule-entry';
import { UnknownJobError } from './scheduler-errors';
import { nextSlot, slotKey } from './slots';

const DAY_MS = 86_400_000;

export interface SchedulerDeps {
  clock: Clock;
  store: Pick<Store, 'claims' | 'kv'>;
  logger?: SchedulerLogger;
  /** Runs one job; the runtime builds the bot's context and calls the bot's `jobs[job]`. */
  runJob: (run: JobRunRequest) => Promise<JobRunResult | void>;
  /** How long a slot's claim lasts (default a day, and always longer than the catch-up window). */
  claimTtlMs?: number;
  /**
   * Lease of the cross-replica "running" claim of `overlap: skip` jobs, renewed every third of it while
   * they run (default 1 min): a replica that died mid-run blocks the job's next slots for at most this
   * long (with SQLite not at all: its process is seen to be gone).
   */
  leaseMs?: number;
  /** How long `stop()` waits for running jobs before aborting them (default 30 s on the clock). */
  stopTimeoutMs?: number;
  /** The time limit of a job whose schedule sets none, and of a job run on demand (default: none). */
  defaultTimeoutMs?: number;
  /**
   * Whether a bot has a job no schedule names (a job run on demand only, or one a `'*'` handler takes):
   * `runNow` runs it like a schedule's, recorded, under `overlap: skip` and `defaultTimeoutMs`.
   */
  hasJob?: (tenant: string, bot: string, job: string) => boolean;
  /**
   * Bots whose stored schedules and runs are kept although no schedule here names them (bots that
   * failed to load this time); the schedules of any other bot no longer configured are forgotten.
   */
  keepRecordsOf?: (bot: string) => boolean;
  /** The job handlers a bot defines (not `'*'`), for the "did you mean" of an unknown job. */
  jobNames?: (tenant: string, bot: string) => string[];
  /**
   * Why a bot has no jobs here at all (not deployed to the tenant, or no such bot), or undefined when it
   * is deployed: `runNow` of such a bot throws this instead of an unknown job.
   */
  botProblem?: (tenant: string, bot: string) => Error | undefined;
  /**
   * Whether a bot is paused now (asked of the store at each slot): a paused bot's slots do not run and
   * are not marked seen, so `resumed` catches them up per `catch_up`; a run on demand is refused.
   */
  isPaused?: (tenant: string, bot: string) => Promise<boolean>;
}

/** How `runNow` runs a job. */
export interface RunNowOptions {
  /** The slot the run is for, as the job sees it (default: now). */
  slotMs?: number;
  /** Where the job's `ctx.progress` goes. */
  onProgress?: (text: string) => void;
}

interface Armed {
  entry: ScheduleEntry;
  /** Slots after this instant are still to come. */
  from: number;
  next: number | undefined;
  timer: TimerHandle | undefined;
}

const SILENT: SchedulerLogger = SILENT_LOGGER;

/**
 * Cron jobs, exactly once per slot across replicas. Slots come from cron-parser on the injected clock
 * (not node-cron's own timers, which follow the system clock: advancing the sandbox clock past 09:00
 * must run the 09:00 slot). At each slot every replica tries to claim `slotKey(...)` in the shared
 * store; only the winner runs the job.
 *
 * @example
 * const scheduler = new Scheduler({ clock, store, logger, runJob: (run) => runtime.runJob(run) }, [
 *   { tenant: 'acme', bot: 'kudos', job: 'digest', cron: '0 9 * * MON', timezone: 'Europe/Berlin', catchUpMs: 3_600_000 },
 * ]);
 * await scheduler.start();
 * // ...
 * await scheduler.stop();
 */
export class Scheduler {
  private readonly entries: ScheduleEntry[];
  private readonly armed = new Map<string, Armed>();
  private readonly records: JobRecords;
  private readonly runner: JobRunner;
  private readonly logger: SchedulerLogger;
  private state: 'new' | 'started' | 'stopped' = 'new';

  constructor(
    private readonly deps: SchedulerDeps,
    schedules: readonly ScheduleEntryInput[],
  ) {
    this.entries = schedules.map((s, i) => withDefaultLimit(checkEntry(s, i), deps.defaultTimeoutMs));
    const ids = new Set<string>();
    this.entries.forEach((entry, i) => {
      if (ids.has(scheduleId(entry))) throw new InvalidInputError(`schedules.${i}.job`, `schedules.${i}.job: "${scheduleId(entry)}" is scheduled twice`);
      ids.add(scheduleId(entry));
    });
    this.logger = deps.logger ?? SILENT;
    this.records = new JobRecords(deps.store);
    this.runner = new JobRunner({
      clock: deps.clock,
      store: deps.store,
      records: this.records,
      logger: this.logger,
      runJob: deps.runJob,
      leaseMs: deps.leaseMs ?? 60_000,
    });
  }

  /** Records the schedules, runs (or skips) slots missed while down, then arms the next slot of each. */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new IntrabotError('conflict', `a scheduler starts once (this one is ${this.state})`);
    this.state = 'started';
    await this.records.saveSchedules(this.entries, this.deps.keepRecordsOf);
    for (const entry of this.entries) {
      const now = this.deps.clock.now();
      if (!(await this.paused(entry))) await this.catchUp(entry, now);
      // a slot exactly at "now" is still to come: it fires as the regular slot
      this.arm({ entry, from: now - 1, next: undefined, timer: undefined });
    }
  }

  /** Cancels the timers and waits (up to `stopTimeoutMs`) for running jobs, then aborts the rest. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const armed of this.armed.values()) if (armed.timer) this.deps.clock.clearTimeout(armed.timer);
    this.armed.clear();
    await this.runner.drain(this.deps.stopTimeoutMs ?? 30_000);
  }

  /** The jobs a bot has: its schedules' and its own handlers'. */
  private jobNamesOf(tenant: string, bot: string): string[] {
    const scheduled = this.entries.filter((e) => e.tenant === tenant && e.bot === bot).map((e) => e.job);
    return [...new Set([...scheduled, ...(this.deps.jobNames?.(tenant, bot) ?? [])])];
  }

  /**
   * Runs a job now (`intrabot run <bot> <job>`, the console's "run now"), outside any slot: not claimed,
   * recorded as `manual`, under the schedule's overlap policy and time limit (a job no schedule names:
   * `overlap: skip` and the default limit). Resolves with the run's record when it has ended; throws
   * `botProblem`'s error for a bot not deployed to the tenant, `UnknownJobError` for a job the bot does not have.
   */
  async runNow(tenant: string, bot: string, job: string, options: RunNowOptions = {}): Promise<RunRecord> {
    const entry: RunnableJob | undefined =
      this.entries.find((e) => e.tenant === tenant && e.bot === bot && e.job === job) ??
      (this.deps.hasJob?.(tenant, bot, job) ? { tenant, bot, job, overlap: 'skip', timeoutMs: this.deps.defaultTimeoutMs } : undefined);
    if (!entry) throw this.deps.botProblem?.(tenant, bot) ?? new UnknownJobError(tenant, bot, job, this.jobNamesOf(tenant, bot));
    if (await this.paused(entry))
      throw new IntrabotError('conflict', `bot ${bot} is paused on tenant ${tenant}: resume it first (intrabot bots resume ${bot})`);
    return this.runner.run(entry, options.slotMs ?? this.deps.clock.now(), 'manual', options.onProgress);
  }

  /**
   * A bot was resumed: the slots its schedules missed while it was paused are run or skipped per each
   * schedule's `catch_up`, as at start (claimed, so once across replicas).
   */
  async resumed(tenant: string, bot: string): Promise<void> {
    const now = this.deps.clock.now();
    for (const entry of this.entries) if (entry.tenant === tenant && entry.bot === bot) await this.catchUp(entry, now);
  }

  private async paused(entry: Pick<ScheduleEntry, 'tenant' | 'bot'>): Promise<boolean> {
    return (await this.deps.isPaused?.(entry.tenant, entry.bot)) === true;
  }

  /** Each schedule with its next slot and last runs (from the store: runs on every replica count). */
  async listJobs(): Promise<JobListing[]> {
    return listJobs(this.records, this.entries, this.deps.clock.now());
  }

  private async catchUp(entry: ScheduleEntry, now: number): Promise<void> {
    try {
      const plan = planCatchUp({ cron: entry.cron, timezone: entry.timezone, catchUpMs: entry.catchUpMs, seenMs: await this.records.seen(entry), nowMs: now });
      if (plan.skipped > 0 && plan.latestSkipped !== undefined)
        await this.skipLate(entry, { latest: plan.latestSkipped, count: plan.skipped, capped: plan.capped, trigger: 'catch-up' }, now);
      if (plan.run !== undefined) await this.claimAndRun(entry, plan.run, 'catch-up');
      await this.records.markSeen(entry, now - 1);
    } catch (error) {
      this.logger.error({ schedule: scheduleId(entry), error: String(error) }, 'scheduler catch-up failed');
    }
  }

  private arm(armed: Armed): void {
    if (this.state !== 'started') return;
    const { entry } = armed;
    armed.next = nextSlot(entry.cron, entry.timezone, armed.from);
    armed.timer = armed.next === undefined ? undefined : this.deps.clock.setTimeout(() => this.fire(armed), armed.next - this.deps.clock.now());
    this.armed.set(scheduleId(entry), armed);
    this.records.saveNext(entry, armed.next).catch((error: unknown) => {
      this.logger.warn({ schedule: scheduleId(entry), error: String(error) }, 'scheduler could not record the next slot');
    });
  }

  /** A timer fired: the slots up to now are due (more than one when the clock jumped or the process stalled). */
  private fire(armed: Armed): void {
    const now = this.deps.clock.now();
    const due = dueSlots(armed.entry.cron, armed.entry.timezone, armed.from, now);
    this.arm({ entry: armed.entry, from: now, next: undefined, timer: undefined });
    this.handleDue(armed.entry, due, now).catch((error: unknown) => {
      this.logger.error({ schedule: scheduleId(armed.entry), error: String(error) }, 'scheduler failed to handle a slot');
    });
  }

  private async handleDue(entry: ScheduleEntry, due: DueSlots, now: number): Promise<void> {
    // not seen either: the slot is caught up (or skipped) per catch_up when the bot is resumed
    if (await this.paused(entry)) {
      this.logger.info({ schedule: scheduleId(entry) }, 'slot not run: the bot is paused');
      return;
    }
    const { latest, count, capped } = due.late;
    if (latest !== undefined) await this.skipLate(entry, { latest, count, capped, trigger: 'slot' }, now);
    for (const slot of due.run) await this.claimAndRun(entry, slot, 'slot');
  }

  /** Claims the slot; the winner starts the job (not awaited: the next slot must not wait for this run). */
  private async claimAndRun(entry: ScheduleEntry, slot: number, trigger: 'slot' | 'catch-up'): Promise<void> {
    const ttl = Math.max(this.deps.claimTtlMs ?? DAY_MS, 2 * (entry.catchUpMs ?? 0));
    const won = await this.deps.store.claims.claim(slotKey(entry.tenant, entry.bot, entry.job, slot), ttl);
    await this.records.markSeen(entry, slot);
    if (!won || this.state === 'stopped') return;
    this.runner.run(entry, slot, trigger).catch((error: unknown) => {
      this.logger.error({ schedule: scheduleId(entry), error: String(error) }, 'scheduler failed to run a job');
    });
  }

  private async skipLate(entry: ScheduleEntry, skipped: { latest: number; count: number; capped: boolean; trigger: RunTrigger }, now: number): Promise<void> {
    const { latest, count, capped, trigger } = skipped;
    const fields = { schedule: scheduleId(entry), latest: new Date(latest).toISOString(), count };
    this.logger.warn(fields, `skipped ${count}${capped ? '+' : ''} missed slot(s) older than the catch-up window`);
    const record: RunRecord = {
      tenant: entry.tenant,
      bot: entry.bot,
      job: entry.job,
      slot: latest,
      trigger,
      outcome: 'skipped-late',
      started: now,
      finished: now,
      skipped: count,
    };
    if (capped) record.capped = true;
    await this.records.saveRun(record);
  }
}

/** Parses one entry and checks its cron expression and zone, naming the field. */
function checkEntry(input: ScheduleEntryInput, index: number): ScheduleEntry {
  const parsed = ScheduleEntrySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = `schedules.${index}${issue?.path.length ? `.${issue.path.join('.')}` : ''}`;
    throw new InvalidInputError(field, `${field}: ${issue?.message ?? 'is invalid'}`);
  }
  try {
    nextSlot(parsed.data.cron, parsed.data.timezone, 0);
  } catch (error) {
    throw new InvalidInputError(`schedules.${index}.cron`, `schedules.${index}.cron: ${(error as Error).message}`);
  }
  return parsed.data;
}

function withDefaultLimit(entry: ScheduleEntry, timeoutMs: number | undefined): ScheduleEntry {
  return entry.timeoutMs === undefined && timeoutMs !== undefined ? { ...entry, timeoutMs } : entry;
}
