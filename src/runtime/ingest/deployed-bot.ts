import type { AlertDeployment, AlertDeployments } from '../../alerts/alert-deployments';
import { tracedApi } from '../../api/create-api-client';
import type { CommandUser } from '../../bots/commands';
import type { BotContext } from '../../bots/context';
import type { ReplySource, EntrySink } from '../../bots/create-bot-context';
import { ANY_JOB } from '../../bots/define-bot';
import type { LoopGuard } from '../../bots/loop-guard';
import type { Chain } from '../../bots/middleware';
import type { ConversationBook, PendingConversation } from '../../bots/conversations/pending';
import { timeOut } from '../../bots/conversations/time-out';
import { IntrabotError } from '../../errors';
import type { Logger } from '../../log';
import type { JobRunRequest, JobRunResult } from '../../scheduler/job-runner';
import type { InboxItem } from '../../store/inbox';
import { traceLogFields, type TraceContext } from '../../tracing/spans';
import type { Envelope } from '../../webhooks/envelope';
import { normaliseDelivery } from '../../webhooks/normalise';
import { DeployedAlertInput } from '../alerts/deployed-alert-input';
import { deploymentKey, type Deployment, type DeploymentTable } from '../deployments';
import { deliverToBot, SentMessages, type DeliveryOutcome, type RouteExecutor } from './handle-delivery';
import { SendCount, type HandlerRunner } from './handler-runner';

/** What every deployment's triggers share: how a run is made, loop prevention, the bot users, the outbox. */
export interface DeployedBotDeps {
  runner: HandlerRunner;
  loopGuard: LoopGuard;
  /** What provisioning made of each deployment (its bot user, switched off). */
  table: Pick<DeploymentTable, 'provisionedBot' | 'all'>;
  /** Where alert messages are queued (the outbox). */
  outbox: EntrySink;
}

/** One job run as the scheduler's job runner hands it over (it owns the time limit and the run record). */
export type JobSlotRun = Pick<JobRunRequest, 'tenant' | 'bot' | 'job' | 'slotMs' | 'signal' | 'onProgress' | 'trace'>;

/**
 * One bot deployed to one tenant, with one entry per trigger: `deliver` (an inbox item: an event, a
 * command, an answer, a report), `runJob` (a job's slot, or a run on demand), `timeOut` (a question's
 * deadline) and `alertInput` (an alert input's request). Each resolves what it needs once, from the
 * deployment it was made with, and runs the bot's code through the deployment's one chain (the runtime's
 * middleware, then the bot's `use`) in a context made by the handler runner.
 */
export class DeployedBot {
  readonly tenant: string;
  readonly bot: string;

  constructor(
    readonly deployment: Deployment,
    private readonly deps: DeployedBotDeps,
  ) {
    this.tenant = deployment.tenant.config.id;
    this.bot = deployment.bot.name;
  }

  /**
   * An inbox item through the bot: `switched off? -> payload check -> loop check -> route -> run`. The
   * item carries the envelope and event name the receiver checked; nothing is parsed again. Throws when
   * the bot's code fails (the inbox retries, then dead-letters).
   */
  async deliver(item: InboxItem, trace?: TraceContext): Promise<DeliveryOutcome> {
    const provisioned = this.deps.table.provisionedBot(this.tenant, this.bot);
    if (provisioned?.enabled === false) return { status: 'ignored', reason: `bot ${this.bot} is switched off: ${provisioned.reason}` };
    const { deployment } = this;
    // checked by the receiver (or the receive door) before it was stored
    const envelope = item.envelope as unknown as Envelope;
    const event = item.event ?? normaliseDelivery(envelope, deployment.tenant.config.event_prefix).event;
    const entity = (envelope.payload as { id?: unknown }).id;
    const log = this.deps.runner.logger(deployment, { delivery: item.deliveryId, event, ...(entity !== undefined ? { entity } : {}) });
    // what the handler says, kept in the delivery history so the console can show it after it was sent
    const told = new SentMessages();
    const run = new DeliveryRun(deployment, this.deps.runner, log, trace, told);
    const { definition } = deployment.bot;
    const outcome = await deliverToBot(
      { tenant: this.tenant, bot: this.bot, event, envelope, definition, manifest: deployment.manifest, loopGuard: this.deps.loopGuard },
      run,
    );
    log.info(traceLogFields(trace), `delivery ${outcome.status}: ${outcome.status === 'handled' ? outcome.what : outcome.reason}`);
    return outcome.status === 'handled' && told.list.length > 0 ? { ...outcome, sends: told.list } : outcome;
  }

  /** One job run: its handler (or a `'*'` one) through the chain, with the run's signal; counts what it queued. */
  async runJob(run: JobSlotRun): Promise<JobRunResult> {
    const { deployment } = this;
    const jobs = deployment.bot.definition.jobs;
    const job = jobs[run.job] ?? jobs[ANY_JOB];
    if (!job) throw new IntrabotError('not_found', `bot ${this.bot} has no job "${run.job}"`);
    const told = new SendCount();
    const log = this.deps.runner.logger(deployment, { job: run.job });
    const ctx = this.deps.runner.context(deployment, run.signal, { log, progress: run.onProgress, trace: run.trace, told });
    const jobRun = { name: run.job, slot: run.slotMs };
    await deployment.chain({ kind: 'job', what: `job ${run.job}`, job: jobRun }, ctx, () => job(ctx, jobRun));
    return { sent: told.count };
  }

  /** Whether the bot has a job of that name (its own handler, or a `'*'` one). */
  hasJob(job: string): boolean {
    const { jobs } = this.deployment.bot.definition;
    return jobs[job] !== undefined || jobs[ANY_JOB] !== undefined;
  }

  /** The names of the bot's job handlers (not the `'*'` one). */
  jobNames(): string[] {
    return Object.keys(this.deployment.bot.definition.jobs).filter((name) => name !== ANY_JOB);
  }

  /**
   * A question nobody answered by its deadline: its step's `timeout` through the chain (`timeOut`), once
   * across replicas. Logged, never thrown: a failed timeout ends its question all the same.
   */
  async timeOut(conversation: PendingConversation): Promise<void> {
    const { deployment } = this;
    const book = this.deps.runner.conversations(deployment);
    if (!book) return;
    const log = this.deps.runner.logger(deployment, { conversation: conversation.id, step: conversation.step });
    try {
      const outcome = await timeOut(book, conversation, deployment.bot.definition, deployment.chain, new DeliveryRun(deployment, this.deps.runner, log));
      if (outcome === 'timed out') log.info({}, `conversation ${conversation.step} timed out`);
      // an answer is running its step: if it fails, the question waits again and the next sweep re-arms it
      if (outcome === 'busy') log.debug({}, `conversation ${conversation.step}: its answer is being handled`);
    } catch (err) {
      log.error({ err }, `conversation ${conversation.step}: its timeout failed`);
    }
  }

  /** One of the bot's alert inputs, for one request: undefined when the manifest has no such input. */
  alertInput(input: string): AlertDeployment | undefined {
    const resolved = this.deployment.alertInputs.get(input);
    if (!resolved) return undefined;
    return new DeployedAlertInput(this.deployment, resolved, this.deps);
  }
}

/**
 * One run's view of the handler runner for the shared delivery steps (`deliverToBot`, `timeOut`): a
 * context with the run's log and trace, and, for a delivery, what its sends said (`told`, kept for the
 * delivery history).
 */
class DeliveryRun implements RouteExecutor {
  readonly chain: Chain;
  readonly conversations: ConversationBook | undefined;

  constructor(
    private readonly deployment: Deployment,
    private readonly runner: HandlerRunner,
    private readonly log: Logger,
    private readonly trace?: TraceContext,
    private readonly told?: SentMessages,
  ) {
    this.chain = deployment.chain;
    this.conversations = runner.conversations(deployment);
  }

  run(what: string, fn: (ctx: BotContext<unknown>) => unknown, source: ReplySource | undefined): Promise<void> {
    return this.runner.run(this.deployment, what, fn, { source, log: this.log, trace: this.trace, told: this.told });
  }

  async fetchUser(id: number): Promise<CommandUser> {
    return (await tracedApi(this.deployment.tenant.api, this.trace).users.get(id)) as CommandUser;
  }
}

/**
 * Every deployment's triggers, made once at load from the deployment table: the inbox worker, the
 * scheduler, the conversation timeouts and the alert inputs each find their deployment here, once per
 * trigger.
 */
export class DeployedBots implements AlertDeployments {
  private readonly byKey = new Map<string, DeployedBot>();

  constructor(deps: DeployedBotDeps) {
    for (const deployment of deps.table.all()) {
      const deployed = new DeployedBot(deployment, deps);
      this.byKey.set(deploymentKey(deployed.tenant, deployed.bot), deployed);
    }
  }

  /** The bot deployed on a tenant, or undefined (not deployed, or unknown). */
  get(tenant: string, bot: string): DeployedBot | undefined {
    return this.byKey.get(deploymentKey(tenant, bot));
  }

  /** An inbox item to its deployment's `deliver`; ignored when the bot is not deployed on the item's tenant. */
  deliver(item: InboxItem, trace?: TraceContext): Promise<DeliveryOutcome> {
    const deployed = this.get(item.tenant, item.bot);
    if (!deployed) return Promise.resolve({ status: 'ignored', reason: `bot ${item.bot} is not deployed to ${item.tenant}` });
    return deployed.deliver(item, trace);
  }

  /** A job run to its deployment's `runJob`. */
  runJob(run: JobSlotRun): Promise<JobRunResult> {
    const deployed = this.get(run.tenant, run.bot);
    if (!deployed) return Promise.reject(new IntrabotError('unknown_bot', `bot ${run.bot} is not deployed to tenant ${run.tenant}`));
    return deployed.runJob(run);
  }

  /** A question's deadline to its deployment's `timeOut`; a question of a bot no longer deployed is left. */
  async timeOut(conversation: PendingConversation): Promise<void> {
    await this.get(conversation.tenant, conversation.bot)?.timeOut(conversation);
  }

  /** The alert inputs' lookup (`AlertDeployments`): the deployment's input, for one request. */
  resolve(tenant: string, bot: string, input: string): AlertDeployment | undefined {
    return this.get(tenant, bot)?.alertInput(input);
  }

  hasJob(tenant: string, bot: string, job: string): boolean {
    return this.get(tenant, bot)?.hasJob(job) ?? false;
  }

  jobNames(tenant: string, bot: string): string[] {
    return this.get(tenant, bot)?.jobNames() ?? [];
  }
}
