import { basename, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import type { Middleware } from '../bots/middleware';
import type { Clock } from '../clock';
import type { OnRateNotice } from '../api/rate-notice';
import type { Store } from '../store/store';
import type { SnsFetch } from '../alerts/sns/sns-fetch';
import { AlertActivity } from './alerts/alert-activity';
import { BackgroundWork } from './background';
import { middlewareSettingName, type RuntimeConfig } from './config/config';
import { loadMiddlewareModules } from './config/middleware-modules';
import { buildPacedTenants, loadDeployableBots } from './build-steps';
import { BotPauses } from './pause/bot-pauses';
import { buildDelivery } from './sending/delivery';
import { DeploymentTable } from './deployments';
import { buildInboxPipeline } from './ingest/inbox-pipeline';
import { knownLabels, RuntimeMetrics } from './operations/metrics';
import { openBase } from './start/open-base';
import { heldBotNames } from './ingest/not-loaded-holds';
import { mountRoutes } from './mount-routes';
import { ProvisioningProgress } from './start/provisioning-progress';
import { RuntimeAddress } from './runtime-address';
import { runtimeFacade, type Runtime } from './runtime-facade';
import { rememberParts, type RuntimeParts } from './runtime-parts';
import { RuntimeStatus } from './start/runtime-status';
import { SecretRotations } from './rotation/secret-rotations';
import { buildScheduler } from './jobs/scheduling';
import { followRegisteredSdk } from '../tracing/tracing-switch';

export type { ProvisionOptions, ReceivedDelivery, Runtime, RuntimeInspection } from './runtime-facade';

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
  /**
   * The caller tells the user itself about bots that fail to load (a CLI command prints them from
   * `inspect().failures`): they are not logged as well, so each error is shown once.
   */
  reportsLoadFailures?: boolean;
  /** The repository's shared templates (default `templates/` in the working directory). */
  templatesDir?: string;
  /** A handler's time limit (default 30 s); a job's default is ten times it. */
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
  /**
   * Middleware around every bot's event handlers, commands, jobs, reports and conversation steps, first
   * outermost, outside the modules `config.middleware` names and each bot's own `use` (docs/middleware.md).
   */
  middleware?: readonly Middleware[];
  /**
   * The GET of SNS signing certificates and subscription confirmation URLs for the `sns` alert inputs
   * (default: undici, 5 s, 64 KiB). Tests pass one that serves a test certificate and records the GETs.
   */
  snsFetch?: SnsFetch;
  /** Told about pacing a person would notice (a CLI command prints it): long waits for budget, clamped rate headers. */
  onRateNotice?: OnRateNotice;
}

const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;

/**
 * Builds the runtime in named steps: `base (app, store) -> bots -> tenants -> deployments -> delivery
 * (outbox, sender) -> inbox pipeline -> scheduler -> routes`, then hands the parts to the lifecycle
 * (`start -> activate -> close`). docs/architecture.md follows one event, one cron slot and one alert
 * through them.
 */
export async function buildRuntime(deps: RuntimeDeps): Promise<Runtime> {
  const { config, clock } = deps;
  // an SDK the host app registered receives the runtime's spans (`intrabot start` registers its own first)
  followRegisteredSdk();
  // before anything is opened: a module that fails stops the start with nothing to close
  const middleware = [...(deps.middleware ?? []), ...(await loadMiddlewareModules(config.middleware ?? [], middlewareSettingName(deps.env ?? process.env)))];
  const { env, host, store, ownsStore } = await openBase(deps);
  const logger = host.log;
  const registry = await loadDeployableBots(deps, env, logger, async () => {
    if (ownsStore) await store.close();
  });
  const metrics = new RuntimeMetrics({ known: knownLabels(config.tenants, registry.bots, config.proxy?.keys) });
  const status = new RuntimeStatus(new ProvisioningProgress(clock, logger));
  const { limiter, rateHistory, tenants } = buildPacedTenants(deps, store, logger, status.provisioning, metrics);
  // a bot whose manifest failed has no name yet: its folder's name is the name `intrabot new` gives it
  const notLoaded = new Set(registry.failures.map((failure) => failure.name ?? basename(failure.dir)));
  const held = heldBotNames(notLoaded, registry.bots);
  // every trigger of a deployment runs through one chain: the configured middleware, then the bot's `use`
  const table = new DeploymentTable({
    tenants,
    bots: registry.bots,
    store,
    clock,
    held,
    middleware,
    templatesDir: deps.templatesDir ?? resolve('templates'),
  });
  const address = new RuntimeAddress(config);
  const delivery = buildDelivery({ clock, store, table, address, logger, pollMs: deps.pollMs });
  const handlerTimeoutMs = deps.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
  const inbox = buildInboxPipeline({ clock, store, table, delivery, metrics, logger, handlerTimeoutMs, pollMs: deps.pollMs, held });
  const scheduler = buildScheduler({
    clock,
    store,
    table,
    bots: inbox.bots,
    metrics,
    logger,
    jobTimeoutMs: handlerTimeoutMs * 10,
    notLoaded,
    registry,
    paused: delivery.paused,
  });
  const wake = (): void => {
    inbox.worker.wake();
    delivery.sender.wake();
  };
  const pauses = new BotPauses({ table, store, paused: delivery.paused, scheduler, wake, logger });

  const alertActivity = new AlertActivity(clock, table.defaultTenant());
  const rotations = new SecretRotations({ store, clock, logger, table });
  const parts: RuntimeParts = {
    config,
    clock,
    host,
    store,
    registry,
    table,
    limiter,
    rateHistory,
    metrics,
    delivery,
    inbox,
    scheduler,
    pauses,
    alertActivity,
    address,
    status,
    rotations,
    snsFetch: deps.snsFetch,
  };
  if (deps.app) await deps.app.register(async (scope) => mountRoutes(scope, parts, { ownsApp: false }));
  else await mountRoutes(host, parts, { ownsApp: true });

  const background = new BackgroundWork({
    store,
    clock,
    logger,
    table,
    wake: () => inbox.worker.wake(),
    wakeSender: () => delivery.sender.wake(),
    poll: deps.poll,
    rotations,
  });
  const runtime = runtimeFacade(parts, { ownsApp: deps.app === undefined, ownsStore, background, polling: deps.poll !== undefined, env });
  rememberParts(runtime, parts);
  return runtime;
}
