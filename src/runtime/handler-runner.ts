import { createBotContext, type EntrySink, type ReplySource, type WallRef } from '../bots/create-bot-context';
import { botLogger } from '../bots/bot-logger';
import type { BotContext } from '../bots/context';
import { ANY_JOB } from '../bots/define-bot';
import { WallNotFoundError } from '../bots/provision/wall-names';
import type { Clock } from '../clock';
import { withTimeLimit } from '../clock/time-limit';
import { IntrabotError } from '../errors';
import type { Logger } from '../log';
import type { JobRunRequest } from '../scheduler/job-runner';
import type { Store } from '../store/store';
import type { DeploymentTable, Deployment } from './deployments';

/** Serves local files to the platform at signed URLs (incoming-webhook media). */
export interface FileServer {
  urlFor(file: { path: string } | { data: Uint8Array; filename: string }): Promise<string>;
}

export interface HandlerRunnerDeps {
  table: DeploymentTable;
  clock: Clock;
  store: Pick<Store, 'kv'>;
  /** Where sends go: the outbox. */
  sink: EntrySink;
  logger: Logger;
  /** A handler's time limit (DESIGN.md: a hang is that bot's failure alone). */
  timeoutMs: number;
  files?: FileServer | undefined;
}

/** How one handler run is made: where `ctx.reply` answers, its log, and `ctx.progress` for jobs. */
export interface RunOptions {
  source?: ReplySource | undefined;
  log?: Logger | undefined;
  progress?: ((text: string) => void) | undefined;
}

/**
 * Runs a bot's code: builds the handler context for a deployment (sends into the outbox, the bot's store,
 * templates, targets), and runs a handler under its time limit. The one place a context is made, for
 * deliveries and jobs alike.
 */
export class HandlerRunner {
  constructor(private readonly deps: HandlerRunnerDeps) {}

  /** Runs `fn` with a fresh context under the handler time limit; a throw or a timeout rejects (the inbox retries). */
  async run(deployment: Deployment, what: string, fn: (ctx: BotContext<unknown>) => unknown, options: RunOptions = {}): Promise<void> {
    await withTimeLimit(this.deps.clock, this.deps.timeoutMs, `${deployment.bot.name} ${what}`, async (signal) => {
      await fn(this.context(deployment, signal, options));
    });
  }

  /** The logger of one deployment's runs, bound to the bot and tenant (and what `bindings` add). */
  logger(deployment: Deployment, bindings: Record<string, unknown> = {}): Logger {
    return this.deps.logger.child({ bot: deployment.bot.name, tenant: deployment.tenant.config.id, ...bindings });
  }

  /** Whether a bot on a tenant has a job of that name (its own handler, or a `'*'` one). */
  hasJob(tenant: string, bot: string, job: string): boolean {
    const jobs = this.deps.table.get(tenant, bot)?.bot.definition.jobs;
    return jobs !== undefined && (jobs[job] !== undefined || jobs[ANY_JOB] !== undefined);
  }

  /** The names of a bot's job handlers on a tenant (not the `'*'` one). */
  jobNames(tenant: string, bot: string): string[] {
    return Object.keys(this.deps.table.get(tenant, bot)?.bot.definition.jobs ?? {}).filter((name) => name !== ANY_JOB);
  }

  /** Runs one job for the scheduler's job runner, which owns its time limit and its run record. */
  async runJob(run: Pick<JobRunRequest, 'tenant' | 'bot' | 'job' | 'slotMs' | 'signal' | 'onProgress'>): Promise<void> {
    const deployment = this.deps.table.get(run.tenant, run.bot);
    if (!deployment) throw new IntrabotError('unknown_bot', `bot ${run.bot} is not deployed to tenant ${run.tenant}`);
    const jobs = deployment.bot.definition.jobs;
    const job = jobs[run.job] ?? jobs[ANY_JOB];
    if (!job) throw new IntrabotError('not_found', `bot ${run.bot} has no job "${run.job}"`);
    const ctx = this.context(deployment, run.signal, { log: this.logger(deployment, { job: run.job }), progress: run.onProgress });
    await job(ctx, { name: run.job, slot: run.slotMs });
  }

  /** A handler's context on a deployment. */
  context(deployment: Deployment, signal: AbortSignal, options: RunOptions = {}): BotContext<unknown> {
    const { tenant, bot, manifest } = deployment;
    const { files } = this.deps;
    return createBotContext({
      tenant: { id: tenant.config.id, timezone: tenant.config.timezone },
      clock: this.deps.clock,
      bot: { name: bot.name, manifest, userId: this.deps.table.provisionedBot(tenant.config.id, bot.name)?.botUserId },
      config: deployment.config,
      api: tenant.api,
      sink: this.deps.sink,
      kv: this.deps.store.kv(`bot:${tenant.config.id}:${bot.name}`),
      templates: deployment.templates,
      log: botLogger(options.log ?? this.logger(deployment)),
      signal,
      wallOf: (name, field) => wallRefOf(deployment, name, field),
      ...(files ? { fileUrl: (file: Parameters<FileServer['urlFor']>[0]) => files.urlFor(file) } : {}),
      source: options.source,
      progress: options.progress,
    });
  }
}

/**
 * A wall named in a send, from the stored listing alone: a send (an alert's included) never waits for the
 * platform. Walls never listed yet (the first provisioning is still running) are left to the sender.
 */
export async function wallRefOf(deployment: Pick<Deployment, 'tenant'>, name: string, field: string): Promise<WallRef> {
  const found = await deployment.tenant.walls.lookup(name);
  if (found.kind === 'found') return { wallId: found.id };
  if (found.kind === 'unlisted') return { wallName: name };
  throw new WallNotFoundError(field, deployment.tenant.config.id, name);
}
