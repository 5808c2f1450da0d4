import { basename } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ProvisionResult } from '../bots/provision/provisioner';
import type { BotLoadFailure, LoadedBotModule, SkippedBot } from '../bots/registry';
import type { RunRecord } from '../scheduler/run-record';
import type { RunNowOptions } from '../scheduler/scheduler';
import type { JobListing } from '../scheduler/job-listing';
import type { Store } from '../store/store';
import type { AcceptedDelivery } from '../webhooks/receiver';
import { normaliseDelivery } from '../webhooks/normalise';
import type { BackgroundWork } from './background';
import type { RuntimeConfig } from './config/config';
import { acceptDelivery } from './ingest/inbox-pipeline';
import { provisionAll, provisionedBefore } from './start/provisioning';
import { releaseNotLoadedHolds } from './ingest/not-loaded-holds';
import type { ProvisioningProgress } from './start/provisioning-progress';
import { isAllowedWebhookUrl } from '../api/schemas/webhook';
import { isTransient, listenFailure, platformFailure, publicUrlFailure } from './start/start-failure';
import { DEFAULT_START_WAIT_S, waitForPlatform } from './start/start-retry';
import type { RuntimeParts } from './runtime-parts';
import { offerSendersToPlayground, playgroundSenders } from './alerts/playground-senders';

/** What a runtime is made of, for people and tests to read; nothing here is a door to change it. */
export interface RuntimeInspection {
  config: RuntimeConfig;
  /** Where the runtime listens, once it does. */
  url: string | undefined;
  /** The store (the inbox, the outbox, run records) as the runtime uses it. */
  store: Store;
  bots: readonly LoadedBotModule[];
  /** Bots present but not loaded, with why. */
  failures: readonly BotLoadFailure[];
  /** Bots present and deliberately not deployed (example bots in connected mode, bots not in `INTRABOT_BOTS`), with why. */
  skipped: readonly SkippedBot[];
  /** Which bot runs on which tenant. */
  deployments: readonly { tenant: string; bot: string }[];
  /** What the last provisioning did, tenant by tenant. */
  provisionResults: readonly ProvisionResult[];
  /** Each schedule with its next slot and last runs. */
  jobs(): Promise<JobListing[]>;
}

export interface ProvisionOptions {
  dryRun?: boolean;
  publicUrl?: string;
  onTenant?: (tenant: string, index: number, total: number) => void;
}

/** A delivery given to the `receive` door: what the receiver would have checked (the envelope), without HTTP. */
export type ReceivedDelivery = Pick<AcceptedDelivery, 'tenant' | 'bot' | 'deliveryId' | 'envelope'> & { dedupeKey?: string };

export interface Runtime {
  /** The Fastify app the runtime serves from (its own, or the host's with `intrabotPlugin`). */
  app: FastifyInstance;
  /** Listens, provisions every tenant, then starts the workers. Resolves to the runtime's base URL. */
  start(): Promise<string>;
  /** Provisions and starts the workers once the app listens (what `start` does after listening). */
  activate(): Promise<string>;
  /** Provisioning alone (the CLI's `provision [--dry-run]`). */
  provision(options?: ProvisionOptions): Promise<ProvisionResult[]>;
  /** Records a delivery as the receiver does, without HTTP (Probot's `receive` door); handled by the workers. */
  receive(delivery: ReceivedDelivery): Promise<{ duplicate: boolean }>;
  /**
   * Runs a bot's job now, as `intrabot run` and the console do: recorded as a manual run, under its
   * schedule's overlap policy and time limit. Resolves with the run's record (its outcome, its error).
   */
  runJob(tenant: string, bot: string, job: string, options?: RunNowOptions): Promise<RunRecord>;
  /**
   * Sends what the outbox holds, whether or not the runtime listens (`intrabot run` in-process), until it
   * is empty or `waitMs` has passed on the clock; resolves to how many entries are left.
   */
  flush(options: { waitMs: number; onProgress?: (left: number) => void }): Promise<{ left: number }>;
  /** What the runtime is made of, to read. */
  inspect(): RuntimeInspection;
  close(): Promise<void>;
}

export interface FacadeOptions {
  /** The app is the runtime's own (not a host's): it listens, and closes with the runtime. */
  ownsApp: boolean;
  ownsStore: boolean;
  background: BackgroundWork;
  /** Poll instead of receiving: no webhook endpoints are created. */
  polling: boolean;
  /** The environment the configuration was read from (start-up errors name the variables set there). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The runtime as its users hold it: the lifecycle (`start -> activate -> close`) over the parts the build steps made. */
export function runtimeFacade(parts: RuntimeParts, options: FacadeOptions): Runtime {
  const { config, clock, store, host, table, registry, delivery, inbox, scheduler, status, address } = parts;
  let provisionResults: ProvisionResult[] = [];
  // start-up's provisioning tells `status.provisioning` its progress; `intrabot provision` prints its own
  const provisionWith = (provision: ProvisionOptions, progress?: ProvisioningProgress): Promise<ProvisionResult[]> =>
    provisionAll({
      table,
      store,
      clock,
      loopGuard: delivery.loopGuard,
      logger: host.log,
      publicUrl: provision.publicUrl ?? address.public(),
      dryRun: provision.dryRun ?? false,
      skipWebhooks: options.polling,
      keep: registry.failures.map((f) => f.name ?? basename(f.dir)),
      ...(progress ? { progress } : {}),
      ...(provision.onTenant ? { onTenant: provision.onTenant } : {}),
    });
  const runtime: Runtime = {
    app: host,
    async start() {
      try {
        await host.listen({ host: config.host, port: config.port });
      } catch (error) {
        throw listenFailure(error, 'runtime', { config, env: options.env }) ?? error;
      }
      return runtime.activate();
    },
    async activate() {
      const bound = host.server.address();
      const url = address.listeningOn(typeof bound === 'object' && bound ? bound.port : config.port);
      if (config.mode === 'connected' && !options.polling && config.public_url && !isAllowedWebhookUrl(config.public_url)) {
        throw publicUrlFailure({ config, env: options.env }, 'not_https');
      }
      // transient platform failures (5xx, network) are retried for a while, each wait logged and shown by /readyz
      let tenant: string | undefined;
      // a tenant never provisioned from this store that refuses connections has a wrong URL: said at once
      const reached = await provisionedBefore(
        store,
        config.tenants.map((t) => t.id),
      );
      const firstContact = (): boolean => tenant !== undefined && !reached.has(tenant);
      const single = config.tenants.length === 1 ? config.tenants[0]!.base_url : undefined;
      provisionResults = await waitForPlatform(() => provisionWith({ onTenant: (t) => (tenant = t) }, status.provisioning), {
        clock,
        logger: host.log,
        waitMs: (config.start_wait ?? DEFAULT_START_WAIT_S) * 1000,
        what: single ? `the platform at ${single}` : 'the platform',
        onWaiting: (reason) => (status.waiting = reason),
        transient: (error) => isTransient(error, { firstContact: firstContact() }),
        explain: (error, tried) => platformFailure(error, { config, env: options.env, tenant, firstContact: firstContact() }, tried),
      });
      // a store failing here must not fail a start that provisioned: the holds are looked at again later anyway
      const released = await releaseNotLoadedHolds(store.inbox, registry.bots).catch((err: unknown) => {
        host.log.warn({ err }, 'could not hand over the deliveries held while their bot failed to load: they are looked at again later');
        return 0;
      });
      if (released > 0) host.log.info({ released }, 'deliveries held while their bot failed to load: handed to it now');
      inbox.worker.start();
      options.background.start();
      delivery.sender.start();
      await scheduler.start();
      await inbox.conversations.start(inbox.bots);
      status.ready = true;
      if (config.mode === 'sandbox') offerAlertSamples(runtime.inspect(), host.log);
      return url;
    },
    provision: (provision = {}) => provisionWith(provision),
    async receive(given) {
      const named = normaliseDelivery(given.envelope, table.tenant(given.tenant)?.config.event_prefix);
      const result = await acceptDelivery(parts, { ...given, event: named.event, dedupeKey: given.dedupeKey ?? named.dedupeKey });
      if (!result.duplicate) inbox.worker.wake();
      return result;
    },
    runJob: (tenant, bot, job, runOptions) => scheduler.runNow(tenant, bot, job, runOptions),
    flush: (flushOptions) => flushOutbox(parts, flushOptions),
    inspect: () => ({
      config,
      url: address.url,
      store,
      bots: registry.bots,
      failures: registry.failures,
      skipped: registry.skipped,
      deployments: table.all().map((d) => ({ tenant: d.tenant.config.id, bot: d.bot.name })),
      provisionResults,
      jobs: () => scheduler.listJobs(),
    }),
    async close() {
      // stop accepting, let running handlers and sends finish (or go back to their queues), then close the store
      status.ready = false;
      const step = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
        await fn();
        host.log.info(`shutdown: ${name}`);
      };
      // a host app closes itself (and calls this from its onClose hook)
      if (options.ownsApp) await step('http server closed', () => host.close());
      await step('recovery finished', () => options.background.stop({ lastBeat: address.url !== undefined }));
      await step('scheduler stopped', () => scheduler.stop());
      await step('conversation timeouts stopped', () => inbox.conversations.stop());
      await step('inbox worker stopped', () => inbox.worker.stop());
      await step('outbox sender stopped', async () => delivery.sender.stop());
      await step('API clients closed', async () => {
        for (const tenant of table.tenants()) await tenant.api.close();
      });
      if (options.ownsStore) await step('store closed', () => store.close());
    },
  };
  return runtime;
}

/** Starts the sender if it is not running, and waits on the clock until the outbox is empty or the time is up. */
/**
 * In sandbox mode, tells the sandbox's playground the sample alerts it can send to this runtime's inputs
 * (a menu of its page). Not waited for: the playground is a convenience, and a sandbox that does not take
 * them (an older one, or none at that address) costs a line in the debug log, nothing else.
 */
function offerAlertSamples(inspection: RuntimeInspection, log: { debug(fields: object, message: string): void }): void {
  const sandbox = inspection.config.tenants[0]?.base_url;
  if (!sandbox) return;
  void offerSendersToPlayground(sandbox, playgroundSenders(inspection)).then((error) => {
    if (error) log.debug({ err: error }, "the sandbox's playground did not take this runtime's alert samples");
  });
}

async function flushOutbox(parts: RuntimeParts, options: { waitMs: number; onProgress?: (left: number) => void }): Promise<{ left: number }> {
  const { clock, store, delivery, status } = parts;
  const live = async (): Promise<number> => (await store.outbox.list({ state: 'live', limit: 10_000 })).length;
  if (!status.ready) delivery.sender.start();
  let left = await live();
  const until = clock.now() + options.waitMs;
  try {
    while (left > 0 && clock.now() < until) {
      await clock.sleep(100);
      left = await live();
      options.onProgress?.(left);
    }
  } finally {
    if (!status.ready) await delivery.sender.stop();
  }
  return { left };
}
