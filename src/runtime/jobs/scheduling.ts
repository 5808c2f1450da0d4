import type { BotRegistry } from '../../bots/registry';
import type { Clock } from '../../clock';
import type { Logger } from '../../log';
import { schedulesFromManifest } from '../../scheduler/schedule-entry';
import { Scheduler } from '../../scheduler/scheduler';
import type { JobRunRequest, JobRunResult } from '../../scheduler/job-runner';
import type { PausedBots } from '../../store/paused-bots';
import type { Store } from '../../store/store';
import type { DeploymentTable } from '../deployments';
import type { DeployedBots } from '../ingest/deployed-bot';
import type { RuntimeMetrics } from '../operations/metrics';
import { botNotDeployed } from './undeployed-bot';

export interface SchedulingDeps {
  clock: Clock;
  store: Store;
  table: DeploymentTable;
  /** Each deployment's `runJob`. */
  bots: Pick<DeployedBots, 'runJob' | 'hasJob' | 'jobNames'>;
  metrics: RuntimeMetrics;
  logger: Logger;
  /** The time limit of a job whose schedule sets none, and of one run on demand. */
  jobTimeoutMs: number;
  /** Bots that failed to load: their job history is kept (see `SchedulerDeps.keepRecordsOf`). */
  notLoaded?: ReadonlySet<string>;
  /** What the bots folder held (skipped and failed bots included): why a bot run on demand is not deployed. */
  registry?: Pick<BotRegistry, 'bots' | 'skipped' | 'failures'>;
  /** Which bots are paused: their slots wait for the resume. */
  paused?: PausedBots;
}

/**
 * The scheduler of every deployment's schedules (each in its tenant's zone unless it names one), running
 * jobs through each deployment's `runJob` and counting them. It owns a job's time limit and its run record,
 * manual runs included (`runNow`).
 */
export function buildScheduler(deps: SchedulingDeps): Scheduler {
  const { table, bots, metrics } = deps;
  const schedules = table
    .all()
    .flatMap((d) => schedulesFromManifest(d.manifest.schedules, { tenant: d.tenant.config.id, bot: d.bot.name, timezone: d.tenant.config.timezone }));
  const runJob = async (run: JobRunRequest): Promise<JobRunResult> => {
    try {
      const result = await bots.runJob(run);
      metrics.jobRuns.inc({ bot: run.bot, job: run.job, outcome: 'ok' });
      return result;
    } catch (error) {
      metrics.jobRuns.inc({ bot: run.bot, job: run.job, outcome: 'failed' });
      throw error;
    }
  };
  return new Scheduler(
    {
      clock: deps.clock,
      store: deps.store,
      runJob,
      logger: deps.logger,
      defaultTimeoutMs: deps.jobTimeoutMs,
      hasJob: (tenant, bot, job) => bots.hasJob(tenant, bot, job),
      jobNames: (tenant, bot) => bots.jobNames(tenant, bot),
      botProblem: (tenant, bot) => botNotDeployed({ bots: [], skipped: [], failures: [], ...deps.registry, deployments: deploymentsOf(table) }, tenant, bot),
      keepRecordsOf: (bot) => deps.notLoaded?.has(bot) === true,
      ...(deps.paused ? { isPaused: async (tenant: string, bot: string) => (await deps.paused!.current(tenant, bot)) !== undefined } : {}),
    },
    schedules,
  );
}

function deploymentsOf(table: DeploymentTable): { tenant: string; bot: string }[] {
  return table.all().map((d) => ({ tenant: d.tenant.config.id, bot: d.bot.name }));
}
