import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { IntrabotApi } from '../api/create-api-client';
import { createBotContext, type EntrySink, type ReplySource, type WallRef } from '../bots/bot-context';
import type { BotContext, BotLogger } from '../bots/context';
import { dispatchDelivery, type DispatchOutcome } from '../bots/dispatch';
import { ANY_JOB } from '../bots/define-bot';
import type { LoopGuard } from '../bots/loop-guard';
import { deploysTo, manifestForTenant, type BotManifest } from '../bots/manifest';
import { webhookSecretName } from '../bots/provision/provision-bot';
import { WALLS_KV, WallNames, WallNotFoundError } from '../bots/provision/wall-names';
import type { ProvisionedBot, ProvisionResult } from '../bots/provision/provisioner';
import type { LoadedBotModule } from '../bots/registry';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { JobRunRequest } from '../scheduler/job-runner';
import type { InboxItem } from '../store/inbox';
import type { Store } from '../store/store';
import { createTemplateEngine, type TemplateEngine } from '../templates';
import { EnvelopeSchema } from '../webhooks/envelope';
import { fromPlatformEvent } from '../webhooks/events';
import type { ReceiverTarget } from '../webhooks/receiver';
import type { TenantConfig } from './config';

/** One tenant as the engine sees it: its configuration, its API client, what provisioning made. */
export interface TenantRuntime {
  config: TenantConfig;
  api: IntrabotApi;
  provision?: ProvisionResult | undefined;
}

/** One bot deployed to one tenant, with the tenant's view of its manifest and its parsed config. */
export interface Deployment {
  tenant: TenantRuntime;
  bot: LoadedBotModule;
  manifest: BotManifest;
  config: unknown;
  provisioned: ProvisionedBot | undefined;
}

export interface EngineDeps {
  clock: Clock;
  store: Store;
  logger: FastifyBaseLogger;
  bots: readonly LoadedBotModule[];
  tenants: ReadonlyMap<string, TenantRuntime>;
  sink: EntrySink;
  loopGuard: LoopGuard;
  /** The repository's shared `templates/`. */
  templatesDir: string;
  /** A handler's time limit (DESIGN.md: a hang is that bot's failure alone). */
  handlerTimeoutMs?: number;
  /** Serves local files to the platform at signed URLs (incoming-webhook media). */
  files?: { urlFor(file: { path: string } | { data: Uint8Array; filename: string }): Promise<string> };
}

/**
 * The bots at work: turns a recorded delivery into a handler run (`handle`, also the `receive` door
 * that tests and `intrabot trigger` use without HTTP), runs jobs, and builds each run's context.
 */
export class BotEngine {
  private readonly templates = new Map<string, TemplateEngine>();
  private readonly secrets = new Map<string, string>();
  private readonly walls = new Map<string, WallNames>();
  private readonly timeoutMs: number;

  constructor(private readonly deps: EngineDeps) {
    this.timeoutMs = deps.handlerTimeoutMs ?? 30_000;
  }

  /** The bot deployed on a tenant, or undefined (not deployed, or unknown). */
  deployment(tenantId: string, botName: string): Deployment | undefined {
    const tenant = this.deps.tenants.get(tenantId);
    const bot = this.deps.bots.find((b) => b.name === botName);
    if (!tenant || !bot || !deploysTo(bot.manifest, tenantId)) return undefined;
    const manifest = manifestForTenant(bot.manifest, tenantId);
    return { tenant, bot, manifest, config: bot.definition.parseConfig(manifest.config), provisioned: tenant.provision?.bots[botName] };
  }

  /** Every deployment, for provisioning and the scheduler. */
  deployments(): Deployment[] {
    const out: Deployment[] = [];
    for (const tenantId of this.deps.tenants.keys()) {
      for (const bot of this.deps.bots) {
        const deployment = this.deployment(tenantId, bot.name);
        if (deployment) out.push(deployment);
      }
    }
    return out;
  }

  /** What the receiver checks a delivery against: the endpoint's signing secret, the customer. */
  async receiverTarget(tenantId: string, botName: string): Promise<ReceiverTarget | undefined> {
    const deployment = this.deployment(tenantId, botName);
    if (!deployment || deployment.provisioned?.enabled === false) return undefined;
    const name = webhookSecretName(tenantId, botName);
    let secret = this.secrets.get(name);
    if (secret === undefined) {
      secret = await this.deps.store.secrets.get(name);
      if (secret === undefined) return undefined;
      this.secrets.set(name, secret);
    }
    const { config } = deployment.tenant;
    return { tenant: tenantId, bot: botName, secret, customer: config.customer, eventPrefix: config.event_prefix };
  }

  /**
   * A tenant's wall names: one instance per tenant, so concurrent lookups share one listing; the
   * listing itself is in the store, made at provisioning.
   */
  wallsOf(tenantId: string): WallNames | undefined {
    const tenant = this.deps.tenants.get(tenantId);
    if (!tenant) return undefined;
    let walls = this.walls.get(tenantId);
    if (!walls) {
      walls = new WallNames({ tenant: tenantId, api: tenant.api, clock: this.deps.clock, kv: this.deps.store.kv(WALLS_KV) });
      this.walls.set(tenantId, walls);
    }
    return walls;
  }

  /** Forget cached secrets (after provisioning changed them). */
  forgetSecrets(): void {
    this.secrets.clear();
  }

  /** Runs a recorded delivery through the bot's handlers. Throws when the handler fails (the inbox retries). */
  async handle(item: InboxItem): Promise<DispatchOutcome> {
    const deployment = this.deployment(item.tenant, item.bot);
    if (!deployment) return { status: 'ignored', reason: `bot ${item.bot} is not deployed to ${item.tenant}` };
    if (deployment.provisioned?.enabled === false) return { status: 'ignored', reason: `bot ${item.bot} is switched off: ${deployment.provisioned.reason}` };
    const envelope = EnvelopeSchema.parse(item.envelope);
    const event = fromPlatformEvent(envelope.event, deployment.tenant.config.event_prefix) ?? envelope.event;
    const entity = (envelope.payload as { id?: unknown }).id;
    const log = this.logger(deployment, { delivery: item.deliveryId, event, ...(entity !== undefined ? { entity } : {}) });
    const outcome = await dispatchDelivery(
      {
        tenant: item.tenant,
        botName: item.bot,
        manifest: deployment.manifest,
        definition: deployment.bot.definition,
        clock: this.deps.clock,
        loopGuard: this.deps.loopGuard,
        context: (source, signal) => this.context(deployment, source, signal, log),
        fetchUser: async (id) => (await deployment.tenant.api.users.get(id)) as never,
        timeoutMs: this.timeoutMs,
      },
      event,
      envelope,
    );
    log.info(`delivery ${outcome.status}: ${outcome.status === 'handled' ? outcome.what : outcome.reason}`);
    return outcome;
  }

  /** Whether a bot on a tenant has a job of that name (its own handler, or a `'*'` one). */
  hasJob(tenantId: string, botName: string, job: string): boolean {
    const jobs = this.deployment(tenantId, botName)?.bot.definition.jobs;
    return jobs !== undefined && (jobs[job] !== undefined || jobs[ANY_JOB] !== undefined);
  }

  /** Runs one job of a bot on a tenant (for the scheduler's job runner, which owns its time limit and record). */
  async runJob(run: Pick<JobRunRequest, 'tenant' | 'bot' | 'job' | 'slotMs' | 'signal' | 'onProgress'>): Promise<void> {
    const deployment = this.deployment(run.tenant, run.bot);
    if (!deployment) throw new IntrabotError('unknown_bot', `bot ${run.bot} is not deployed to tenant ${run.tenant}`);
    const jobs = deployment.bot.definition.jobs;
    const job = jobs[run.job] ?? jobs[ANY_JOB];
    if (!job) throw new IntrabotError('not_found', `bot ${run.bot} has no job "${run.job}"`);
    const log = this.logger(deployment, { job: run.job });
    await job(this.context(deployment, undefined, run.signal, log, undefined, run.onProgress), { name: run.job, slot: run.slotMs });
  }

  /** The time limit of a job whose schedule sets none, and of a job run on demand. */
  get jobTimeoutMs(): number {
    return this.timeoutMs * 10;
  }

  /** A context outside any delivery (tests, `intrabot run`, alert inputs); `sink` replaces the outbox. */
  contextFor(tenantId: string, botName: string, options: { signal?: AbortSignal; sink?: EntrySink } = {}): BotContext<unknown> {
    const deployment = this.deployment(tenantId, botName);
    if (!deployment) throw new IntrabotError('unknown_bot', `bot ${botName} is not deployed to tenant ${tenantId}`);
    return this.context(deployment, undefined, options.signal ?? new AbortController().signal, this.logger(deployment, {}), options.sink);
  }

  /** The bot's template engine on a tenant (its own `templates/` first, then the shared one). */
  templatesOf(tenantId: string, botName: string): TemplateEngine {
    const deployment = this.deployment(tenantId, botName);
    if (!deployment) throw new IntrabotError('unknown_bot', `bot ${botName} is not deployed to tenant ${tenantId}`);
    return this.templatesFor(deployment);
  }

  private context(
    deployment: Deployment,
    source: ReplySource | undefined,
    signal: AbortSignal,
    log: BotLogger,
    sink?: EntrySink,
    progress?: (text: string) => void,
  ): BotContext<unknown> {
    const { tenant, bot, manifest } = deployment;
    return createBotContext({
      tenant: { id: tenant.config.id, timezone: tenant.config.timezone },
      clock: this.deps.clock,
      bot: { name: bot.name, manifest, userId: deployment.provisioned?.botUserId },
      config: deployment.config,
      api: tenant.api,
      sink: sink ?? this.deps.sink,
      kv: this.deps.store.kv(`bot:${tenant.config.id}:${bot.name}`),
      templates: this.templatesFor(deployment),
      log,
      signal,
      wallOf: (name, field) => this.wallRef(tenant.config.id, name, field),
      ...(this.deps.files ? { fileUrl: (file: { path: string } | { data: Uint8Array; filename: string }) => this.deps.files!.urlFor(file) } : {}),
      source,
      progress,
    });
  }

  private templatesFor(deployment: Deployment): TemplateEngine {
    const key = `${deployment.tenant.config.id}:${deployment.bot.name}`;
    let engine = this.templates.get(key);
    if (!engine) {
      engine = createTemplateEngine({
        dirs: [join(deployment.bot.dir, 'templates'), this.deps.templatesDir],
        timezone: deployment.tenant.config.timezone,
        locale: 'en-GB',
      });
      this.templates.set(key, engine);
    }
    return engine;
  }

  /**
   * A wall named in a send, from the stored listing alone: a send (an alert's included) never waits for
   * the platform. Walls never listed yet (the first provisioning is still running) are left to the sender.
   */
  private async wallRef(tenantId: string, name: string, field: string): Promise<WallRef> {
    const found = await this.wallsOf(tenantId)!.lookup(name);
    if (found.kind === 'found') return { wallId: found.id };
    if (found.kind === 'unlisted') return { wallName: name };
    throw new WallNotFoundError(field, tenantId, name);
  }

  private logger(deployment: Deployment, bindings: Record<string, unknown>): BotLogger {
    const child = this.deps.logger.child({ bot: deployment.bot.name, tenant: deployment.tenant.config.id, ...bindings });
    return {
      debug: (message, fields) => child.debug(fields ?? {}, message),
      info: (message, fields) => child.info(fields ?? {}, message),
      warn: (message, fields) => child.warn(fields ?? {}, message),
      error: (message, fields) => child.error(fields ?? {}, message),
    };
  }
}
