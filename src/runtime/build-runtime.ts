import { basename, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { createApiClient } from '../api/create-api-client';
import { rateLimitKey } from '../api/rate-limiter';
import { LoopGuard } from '../bots/loop-guard';
import type { ProvisionResult } from '../bots/provision/provisioner';
import { loadBots, type BotRegistry } from '../bots/registry';
import { usableInMode } from './bot-mode-check';
import type { Clock } from '../clock';
import { Outbox } from '../outbox/outbox';
import { OutboxSender } from '../outbox/sender';
import { SharedRateLimiter } from '../outbox/shared-rate-limiter';
import { Scheduler, type RunNowOptions } from '../scheduler/scheduler';
import type { RunRecord } from '../scheduler/run-record';
import { schedulesFromManifest } from '../scheduler/schedule-entry';
import type { Store } from '../store/store';
import { fromPlatformEvent } from '../webhooks/events';
import { registerReceiver, type AcceptedDelivery } from '../webhooks/receiver';
import { registerAdminRoutes } from './admin-routes';
import { registerConsole } from '../console/console-plugin';
import { consoleDepsFrom } from './console-wiring';
import { RateBudgetHistory } from './rate-budget-history';
import type { RuntimeConfig } from './config';
import { BotEngine, type TenantRuntime } from './engine';
import { handleError, handleFrameworkError, handleNotFound } from './error-handler';
import { InboxWorker } from './inbox-worker';
import { SignedFiles } from './signed-files';
import { DELIVERY_LOG_SPACE, DeliveryLog } from './delivery-log';
import { loggerOptions, OneLinePerRequest } from './logger';
import { knownLabels, OTHER_LABEL, RuntimeMetrics } from './metrics';
import { openRuntimeStore } from './open-runtime-store';
import { readinessRoute } from './readiness';
import { guardStore } from '../store/guard-store';
import { provisionAll } from './provisioning';
import { entryResolver } from './resolve-entry';
import { wireAlertInputs } from './alerts-wiring';
import { withSandboxEnv } from './sandbox-env';
import { registerProxy } from '../proxy/plugin';
import { registerOpenApiRoutes } from '../proxy/openapi-route';
import { outboxBusyFrom } from '../proxy/outbox-busy';
import { HEARTBEAT_MS, heartbeat, pollMissed, recoverMissed } from './recovery';

/** Everything the runtime needs, passed in once (STYLE.md rule 5). */
export interface RuntimeDeps {
  config: RuntimeConfig;
  clock: Clock;
  env?: Readonly<Record<string, string | undefined>>;
  /** An open store; default: the one the configuration names (opened, and closed with the runtime). */
  store?: Store;
  /** Outbound HTTP to the platform (tests may pass one). */
  dispatcher?: Dispatcher;
  /** Load only these bots from `bots_dir`. */
  only?: readonly string[];
  /** Re-imports the bots' modules under this version (`intrabot dev` reloading changed files). */
  botsVersion?: string;
  /** The repository's shared templates (default `templates/` in the working directory). */
  templatesDir?: string;
  handlerTimeoutMs?: number;
  /** Poll interval of the inbox and outbox workers (ms on the clock). */
  pollMs?: number;
  /** Where `sandbox.env` is looked for (default: the working directory). */
  rootDir?: string;
  /**
   * Poll the platform instead of receiving its deliveries (`intrabot dev --poll`, developing against a
   * tenant that cannot reach this machine): no webhook endpoints are created, and new posts and
   * comments are listed every `intervalMs`.
   */
  poll?: { intervalMs: number };
  /** An existing Fastify app to serve the runtime's routes from (one encapsulated scope); see `intrabotPlugin`. */
  app?: FastifyInstance;
}

export interface Runtime {
  app: FastifyInstance;
  config: RuntimeConfig;
  store: Store;
  engine: BotEngine;
  registry: BotRegistry;
  metrics: RuntimeMetrics;
  outbox: Outbox;
  /** Sends what the outbox holds, with the runtime's loop prevention; `start` starts it (`intrabot run` alone). */
  sender: OutboxSender;
  scheduler: Scheduler;
  /** Where the runtime listens, once it does. */
  url: string | undefined;
  provisionResults: ProvisionResult[];
  /** Listens, provisions every tenant, then starts the workers. Resolves to the runtime's base URL. */
  start(): Promise<string>;
  /** Provisions and starts the workers once the app listens (what `start` does after listening). */
  activate(): Promise<string>;
  /**
   * Runs a bot's job now, as `intrabot run` and the console do: recorded as a manual run, under its
   * schedule's overlap policy and time limit. Resolves with the run's record (its outcome, its error).
   */
  runJob(tenant: string, bot: string, job: string, options?: RunNowOptions): Promise<RunRecord>;
  /** Provisioning alone (the CLI's `provision [--dry-run]`). */
  provision(options?: { dryRun?: boolean; publicUrl?: string; onTenant?: (tenant: string, index: number, total: number) => void }): Promise<ProvisionResult[]>;
  /** Records a delivery as the receiver does, without HTTP (Probot's `receive` door). */
  receive(delivery: Omit<AcceptedDelivery, 'event' | 'dedupeKey' | 'envelopeJson'> & { dedupeKey?: string }): Promise<{ duplicate: boolean }>;
  close(): Promise<void>;
}

/**
 * Builds the runtime: loads the bots, opens the store, makes one paced API client per tenant (one
 * shared budget per token across replicas), and wires the receiver, the inbox worker, the outbox
 * sender, the scheduler and the admin routes into one Fastify app.
 */
export async function buildRuntime(deps: RuntimeDeps): Promise<Runtime> {
  const { config, clock } = deps;
  // sandbox mode reads sandbox.env (the example alert token...); connected mode never does
  const env = config.mode === 'sandbox' ? withSandboxEnv(deps.env ?? process.env, deps.rootDir ?? process.cwd()) : (deps.env ?? process.env);
  // on close, connections are cut rather than waited for: a delivery cut before its 200 was not
  // acknowledged, so the platform retries it (and dedupe drops it if it was recorded after all)
  const host =
    deps.app ??
    Fastify({
      logger: loggerOptions(config.log_level),
      logController: new OneLinePerRequest(),
      bodyLimit: 1_048_576,
      forceCloseConnections: true,
      frameworkErrors: handleFrameworkError,
    });
  const logger = host.log;
  // a store outage answers 503 with Retry-After on every route, never a 500 (src/store/guard-store.ts)
  const store = guardStore(deps.store ?? (await openRuntimeStore(config, clock, env)));
  const ownsStore = deps.store === undefined;

  const registry = await loadBots(config.bots_dir, env, deps.only, {
    check: usableInMode(config.mode),
    ...(deps.botsVersion ? { version: deps.botsVersion } : {}),
  });
  for (const failure of registry.failures) logger.error({ dir: failure.dir }, `bot not loaded: ${failure.error.message}`);

  const limiter = new SharedRateLimiter({ rate: store.rate, clock, onError: (err) => logger.warn({ err }, 'rate budget: store write failed') });
  const rateHistory = new RateBudgetHistory(clock);
  const tenants = new Map<string, TenantRuntime>();
  for (const tenant of config.tenants) {
    const api = createApiClient({
      baseUrl: tenant.base_url,
      token: tenant.token,
      clock,
      limiter: rateHistory.watch(limiter),
      ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      logger: { warn: (d, m) => logger.warn(d, m) },
    });
    tenants.set(tenant.id, { config: tenant, api });
  }

  const loopGuard = new LoopGuard(store.kv('runtime:loop'));
  let alerts: ReturnType<typeof wireAlertInputs> | undefined;
  // the outbox wakes the sender, made right after it (and before anything can be enqueued)
  const outbox = new Outbox({ store, clock, onEnqueued: () => sender.wake() });
  const sender = new OutboxSender({
    store,
    clock,
    clientFor: (id) => tenants.get(id)?.api,
    hooks: {
      onCreated: async (c) => {
        await loopGuard.noteCreated(c.tenant, c.kind, c.id);
        if (c.tokenUser) await loopGuard.noteTokenUser(c.tenant, c.tokenUser);
        if (c.kind === 'post') await alerts?.onEntryCreated(c.entryId, c.id);
      },
      onSentText: (t) => loopGuard.noteSentText(t.tenant, t.text),
    },
    logger: { warn: (d, m) => logger.warn(d, m) },
    // a bot's message queued before provisioning finished is sent as its bot user, never the token's
    resolve: entryResolver({ provisioned: (id) => tenants.get(id)?.provision, walls: (id) => engine.wallsOf(id) }),
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
  });
  const metrics = new RuntimeMetrics({ known: knownLabels(config.tenants, registry.bots) });
  // the platform downloads incoming-webhook media: local files are served at signed URLs of this runtime
  let runtimeUrl: string | undefined;
  const files = new SignedFiles(store, clock, () => config.public_url ?? runtimeUrl ?? `http://127.0.0.1:${config.port}`);
  const engine = new BotEngine({
    files,
    clock,
    store,
    logger,
    bots: registry.bots,
    tenants,
    sink: outbox,
    loopGuard,
    templatesDir: deps.templatesDir ?? resolve('templates'),
    ...(deps.handlerTimeoutMs ? { handlerTimeoutMs: deps.handlerTimeoutMs } : {}),
  });
  const deliveryLog = new DeliveryLog(store.kv(DELIVERY_LOG_SPACE), clock);
  const handle = async (item: Parameters<BotEngine['handle']>[0]) => {
    const stop = metrics.handlerDuration.startTimer({ bot: item.bot });
    const started = performance.now();
    try {
      const outcome = await engine.handle(item);
      metrics.handlerRuns.inc({ bot: item.bot, outcome: outcome.status });
      await deliveryLog.record(item, outcome, performance.now() - started).catch((err: unknown) => logger.warn({ err }, 'delivery log: store write failed'));
      return outcome;
    } catch (error) {
      metrics.handlerRuns.inc({ bot: item.bot, outcome: 'failed' });
      throw error;
    } finally {
      stop();
    }
  };
  const worker = new InboxWorker({ inbox: store.inbox, clock, handle, logger, ...(deps.pollMs ? { pollMs: deps.pollMs } : {}) });
  const runJob = async (run: Parameters<BotEngine['runJob']>[0]) => {
    try {
      await engine.runJob(run);
      metrics.jobRuns.inc({ bot: run.bot, job: run.job, outcome: 'ok' });
    } catch (error) {
      metrics.jobRuns.inc({ bot: run.bot, job: run.job, outcome: 'failed' });
      throw error;
    }
  };
  const scheduler = new Scheduler(
    {
      clock,
      store,
      runJob,
      logger: schedulerLogger(logger),
      defaultTimeoutMs: engine.jobTimeoutMs,
      hasJob: (tenant, bot, job) => engine.hasJob(tenant, bot, job),
    },
    engine
      .deployments()
      .flatMap((d) => schedulesFromManifest(d.manifest.schedules, { tenant: d.tenant.config.id, bot: d.bot.name, timezone: d.tenant.config.timezone })),
  );

  const accept = async (
    delivery: Pick<AcceptedDelivery, 'tenant' | 'bot' | 'deliveryId' | 'envelope'> & Partial<Pick<AcceptedDelivery, 'event' | 'dedupeKey' | 'envelopeJson'>>,
  ) => {
    const result = await store.inbox.accept({
      tenant: delivery.tenant,
      bot: delivery.bot,
      deliveryId: delivery.deliveryId,
      envelope: delivery.envelope as never,
      ...(delivery.event ? { event: delivery.event } : {}),
      ...(delivery.dedupeKey ? { dedupeKey: delivery.dedupeKey } : {}),
      ...(delivery.envelopeJson ? { envelopeJson: delivery.envelopeJson } : {}),
    });
    metrics.deliveriesReceived.inc({ tenant: delivery.tenant, bot: delivery.bot, event: delivery.event ?? OTHER_LABEL, duplicate: String(!result.accepted) });
    return { duplicate: !result.accepted };
  };
  let ready = false;
  let pollTimer: ReturnType<Clock['setTimeout']> | undefined;
  let polling = true;
  const startPolling = (intervalMs: number): void => {
    let from = clock.now();
    const round = (): void => {
      if (!polling) return;
      pollTimer = clock.setTimeout(() => {
        // overlap by a minute: platform times have whole seconds, and dedupe keys drop what was seen
        const since = from - 60_000;
        from = clock.now();
        pollMissed({ store, clock, logger, deployments: engine.deployments(), onRecovered: () => worker.wake() }, since)
          .catch((err: unknown) => logger.warn({ err }, 'polling the platform failed'))
          .finally(round);
      }, intervalMs);
    };
    round();
  };
  let recovery: Promise<unknown> = Promise.resolve();
  let beatTimer: ReturnType<Clock['setTimeout']> | undefined;
  const beat = (): void => {
    beatTimer = clock.setTimeout(() => {
      void Promise.all(config.tenants.map((t) => heartbeat(store, clock, t.id))).catch((err: unknown) => logger.warn({ err }, 'heartbeat failed'));
      beat();
    }, HEARTBEAT_MS);
  };
  const defaultTenant = config.tenants[0]!.id;
  metrics.onCollect(async () => {
    metrics.outboxDepth.set((await store.outbox.list({ state: 'live', limit: 10_000 })).length);
    metrics.outboxDead.set((await store.outbox.list({ state: 'dead', limit: 10_000 })).length);
    metrics.inboxDead.set((await store.inbox.list({ state: 'dead', limit: 10_000 })).length);
    for (const tenant of config.tenants) {
      const budget = limiter.lastObserved(rateLimitKey(tenant.token));
      if (budget) metrics.rateBudgetRemaining.set({ tenant: tenant.id }, budget.remaining);
    }
  });
  /** Every route of the runtime, on the app it owns or in one encapsulated scope of a host app. */
  const mount = async (app: FastifyInstance): Promise<void> => {
    app.setErrorHandler(handleError);
    // a host app answers its own unknown URLs
    if (!deps.app) app.setNotFoundHandler(handleNotFound);
    await registerReceiver(app, {
      path: '/hooks/:tenant/:bot',
      clock,
      resolve: (tenant, bot) => engine.receiverTarget(tenant, bot),
      accept,
      onAccepted: () => worker.wake(),
      onRejected: (reason) => metrics.deliveriesRejected.inc({ reason }),
      acknowledgeOnly: ['test'],
    });
    await registerReceiver(app, {
      path: '/reports/:tenant/:bot',
      clock,
      resolve: (tenant, bot) => {
        const d = engine.deployment(tenant, bot);
        if (!d || d.manifest.reports.length === 0) return undefined;
        const { reports } = d.manifest;
        return {
          tenant,
          bot,
          secret: reports.map((r) => r.secret),
          secretEvents: reports.map((r) => r.report),
          customer: d.tenant.config.customer,
          eventPrefix: d.tenant.config.event_prefix,
        };
      },
      accept,
      onAccepted: () => worker.wake(),
      onRejected: (reason) => metrics.deliveriesRejected.inc({ reason }),
    });

    files.register(app);
    app.get('/healthz', async () => ({ ok: true }));
    app.get('/readyz', readinessRoute({ started: () => ready, store, bots: () => registry.bots.length }));
    app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send(await metrics.render()));
    // before the alert routes: the console records their activity as they are declared
    registerConsole(app, consoleDepsFrom({ app, config, clock, store, engine, registry, scheduler, worker, sender, deliveryLog, rateHistory }));
    alerts = wireAlertInputs({ app, engine, outbox, store, clock, defaultTenant });
    await registerProxy(app, {
      tenants: [...tenants.values()].map((t) => ({ id: t.config.id, client: t.api })),
      defaultTenant,
      keys: config.proxy?.keys ?? [],
      ...(config.proxy ? { botShare: config.proxy.bot_share, bodyLimit: config.proxy.body_limit } : {}),
      mode: config.mode,
      clock,
      outboxBusy: outboxBusyFrom(store.outbox),
      budget: store.rate,
      logger: { info: (obj, msg) => logger.info(obj, msg) },
      onCall: (entry) => metrics.proxyCalls.inc({ key: entry.key ?? 'none', status: `${String(entry.status).slice(0, 1)}xx` }),
    });
    await registerOpenApiRoutes(app, config.public_url ? { publicUrl: config.public_url } : {});
    registerAdminRoutes(app, { config, engine, store, scheduler, worker, clock, deliveryLog });
  };
  if (deps.app) await deps.app.register(mount);
  else await mount(host);

  const runtime: Runtime = {
    app: host,
    config,
    store,
    engine,
    registry,
    metrics,
    outbox,
    sender,
    scheduler,
    url: undefined,
    provisionResults: [],
    async provision(options = {}) {
      const publicUrl = options.publicUrl ?? config.public_url ?? runtime.url ?? `http://127.0.0.1:${config.port}`;
      const keep = registry.failures.map((f) => f.name ?? basename(f.dir));
      return provisionAll({
        engine,
        store,
        clock,
        loopGuard,
        logger,
        publicUrl,
        dryRun: options.dryRun ?? false,
        skipWebhooks: deps.poll !== undefined,
        keep,
        ...(options.onTenant ? { onTenant: options.onTenant } : {}),
      });
    },
    async start() {
      await host.listen({ host: config.host, port: config.port });
      return runtime.activate();
    },
    async activate() {
      const address = host.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      runtime.url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
      runtimeUrl = runtime.url;
      runtime.provisionResults = await runtime.provision();
      worker.start();
      // recovery lists walls under the rate limit: it runs beside the workers, not before readiness
      recovery = recoverMissed({ store, clock, logger, deployments: engine.deployments(), onRecovered: () => worker.wake() }).catch((err: unknown) => {
        logger.warn({ err }, 'recovery of missed events failed');
        return [];
      });
      beat();
      if (deps.poll) startPolling(deps.poll.intervalMs);
      sender.start();
      await scheduler.start();
      ready = true;
      return runtime.url;
    },
    runJob: (tenant, bot, job, options) => scheduler.runNow(tenant, bot, job, options),
    receive: async (delivery) => {
      const prefix = config.tenants.find((t) => t.id === delivery.tenant)?.event_prefix;
      const event = typeof delivery.envelope.event === 'string' ? fromPlatformEvent(delivery.envelope.event, prefix) : undefined;
      const result = await accept({ ...delivery, ...(event ? { event } : {}) });
      if (!result.duplicate) worker.wake();
      return result;
    },
    async close() {
      // stop accepting, let running handlers and sends finish (or go back to their queues), then close the store
      ready = false;
      if (beatTimer) clock.clearTimeout(beatTimer);
      polling = false;
      if (pollTimer) clock.clearTimeout(pollTimer);
      const step = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
        await fn();
        logger.info(`shutdown: ${name}`);
      };
      // a host app closes itself (and calls this from its onClose hook)
      if (!deps.app) await step('http server closed', () => host.close());
      await step('recovery finished', () => recovery);
      await step('scheduler stopped', () => scheduler.stop());
      await step('inbox worker stopped', () => worker.stop());
      await step('outbox sender stopped', async () => sender.stop());
      await step('API clients closed', async () => {
        for (const tenant of tenants.values()) await tenant.api.close();
      });
      if (runtime.url) await Promise.all(config.tenants.map((t) => heartbeat(store, clock, t.id))).catch(() => undefined);
      if (ownsStore) await step('store closed', () => store.close());
    },
  };
  return runtime;
}

function schedulerLogger(logger: FastifyInstance['log']) {
  return {
    info: (message: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, message),
    warn: (message: string, fields?: Record<string, unknown>) => logger.warn(fields ?? {}, message),
    error: (message: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, message),
  };
}
