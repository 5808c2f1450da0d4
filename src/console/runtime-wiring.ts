import type { FastifyInstance } from 'fastify';
import { IntrabotError } from '../errors';
import { apiRoot, apiUrl } from '../api/api-url';
import { rateLimitKey } from '../api/rate-limiter';
import { fillPath } from '../api/schemas/endpoint';
import { endpoints } from '../api/schemas/endpoints';
import { configuredIncomingSecretName } from '../bots/target-entry';
import { incomingSecretName } from '../bots/provision/provision-bot';
import type { ConsoleDeps } from './console-deps';
import { registerConsole } from './console-plugin';
import type { ConsoleTenant, ConsoleWiringParts } from './console-wiring-parts';
import type { DeliveryQuery, OutboxQuery } from './console-views';
import { alertsView } from './views/alert-views';
import { auditView } from './views/audit-view';
import { botsView } from './views/bot-views';
import { deliveriesView } from './views/delivery-rows';
import { outboxView, type DigestInput, type OutboxSources } from './views/outbox-rows';
import { rateView, type RateKeyLabel } from './views/rate-view';
import { digestKey } from '../outbox/coalesce';
import { OUTBOX_KV } from '../outbox/outbox';

/** `/console/`: the web console (loopback, or the admin token outside sandbox mode), over the runtime's parts. */
export async function consoleRoutes(app: FastifyInstance, parts: ConsoleWiringParts): Promise<void> {
  registerConsole(app, consoleDepsFrom(parts));
}

/** How many entries of each list the console reads at most (the newest deliveries, the oldest outbox entries). */
const READ_LIMIT = 1_000;
/** The audit trail is read whole (it lists every key anyway): filtered before the limit, a quiet bot's runs still show. */
const EVERY_AUDIT_RECORD = Number.POSITIVE_INFINITY;
/** Where the sender keeps a head entry's digest (`digest:<entry id>`). */
const DIGEST_PREFIX = digestKey('');
/** How long the rate budgets' labels are reused (a provisioning run may add an incoming webhook). */
const LABELS_TTL_MS = 10_000;
/** The sandbox's published proxy key: not a secret, but a proxy key all the same, so never shown. */
const SANDBOX_PROXY_KEY = 'sandbox-proxy-key';

/**
 * Builds the console's data sources and actions from the runtime's parts, as `ConsoleWiringParts` narrows
 * them (the one place that knows both). The alert routes record their activity in `parts.alertActivity`.
 *
 * @example
 * registerConsole(app, consoleDepsFrom(parts));
 */
export function consoleDepsFrom(parts: ConsoleWiringParts): ConsoleDeps {
  const { config, clock, store, table } = parts;
  const defaultTenant = table.defaultTenant();
  const activity = parts.alertActivity;

  // the labels read the webhooks' URLs from the encrypted secrets: once every few seconds is enough
  let labels: { at: number; value: Promise<Map<string, RateKeyLabel>> } | undefined;
  const labelsNow = (): Promise<Map<string, RateKeyLabel>> => {
    const now = clock.now();
    if (!labels || now - labels.at > LABELS_TTL_MS || now < labels.at) {
      const value = rateLabels(parts);
      labels = { at: now, value };
      value.catch(() => (labels = undefined));
    }
    return labels.value;
  };

  const readOutbox = async (target?: string): Promise<OutboxSources> => {
    const filter = target === undefined ? {} : { target };
    const [live, dead, digestItems] = await Promise.all([
      store.outbox.list({ state: 'live', limit: READ_LIMIT, ...filter }),
      store.outbox.list({ state: 'dead', limit: READ_LIMIT, ...filter }),
      store.kv(OUTBOX_KV).list(DIGEST_PREFIX),
    ]);
    const digests = new Map(digestItems.map((item) => [item.key.slice(DIGEST_PREFIX.length), item.value as unknown as DigestInput]));
    return { live, dead, digests };
  };

  return {
    mode: config.mode,
    adminToken: config.admin_token,
    // the public address only where a token is asked: in sandbox mode it would open the console to whoever reaches it
    publicUrl: config.mode === 'connected' ? config.public_url : undefined,
    playgroundUrl: config.mode === 'sandbox' && config.tenants[0] ? `${config.tenants[0].base_url}/` : undefined,
    clock,
    bots: async () => {
      const paused = new Map((await parts.pauses.list()).map((p) => [`${p.tenant}/${p.bot}`, p]));
      return botsView({
        mode: config.mode,
        now: clock.now(),
        tenants: config.tenants,
        bots: parts.registry.bots,
        failures: parts.registry.failures,
        deployment: (tenant, bot) => {
          const d = table.get(tenant, bot);
          return d && { manifest: d.manifest, provisioned: table.provisionedBot(tenant, bot) };
        },
        provisioned: (tenant) => table.provisioning(tenant) !== undefined,
        paused: (tenant, bot) => paused.get(`${tenant}/${bot}`),
        provisioning: () => (parts.status.ready ? undefined : parts.status.provisioning.snapshot()),
      });
    },
    pauseBot: async (tenant, bot, input) => {
      const { already } = await parts.pauses.pause(parts.pauses.locate(bot, tenant), input, 'console');
      return { already };
    },
    resumeBot: async (tenant, bot, input) => {
      const { resumed, released, discarded, messages } = await parts.pauses.resume(parts.pauses.locate(bot, tenant), input, 'console');
      return { resumed, released, discarded, messages };
    },
    deliveries: async (query: DeliveryQuery) => {
      const [live, dead, handled] = await Promise.all([
        store.inbox.list({ state: 'live', limit: READ_LIMIT }),
        store.inbox.list({ state: 'dead', limit: READ_LIMIT }),
        parts.inbox.deliveryLog.recent(READ_LIMIT),
      ]);
      return deliveriesView({ live, dead, handled }, query, clock.now());
    },
    replay: async (id) => {
      const done = await store.inbox.requeue(id);
      if (done) parts.inbox.worker.wake();
      return done;
    },
    outbox: async (query: OutboxQuery) => outboxView(await readOutbox(query.target), query, clock.now()),
    retryOutbox: async (id) => {
      const done = await store.outbox.requeue(id);
      if (done) parts.delivery.sender.wake();
      return done;
    },
    dropOutbox: (id) => store.outbox.drop(id),
    rateBudget: async () =>
      rateView({
        now: clock.now(),
        bucketMs: parts.rateHistory.bucketMs,
        spanMs: parts.rateHistory.spanMs,
        keys: parts.rateHistory.snapshot(),
        labels: await labelsNow(),
      }),
    jobs: async () => ({
      now: clock.now(),
      jobs: (await parts.scheduler.listJobs()).map(({ schedule, nextSlot, lastRuns }) => ({
        tenant: schedule.tenant,
        bot: schedule.bot,
        job: schedule.job,
        cron: schedule.cron,
        timezone: schedule.timezone,
        nextSlot: nextSlot ?? null,
        running: lastRuns[0]?.outcome === 'running',
        lastRuns,
      })),
    }),
    runJob: async (tenant, bot, job) => {
      const known = (await parts.scheduler.listJobs()).some((j) => j.schedule.tenant === tenant && j.schedule.bot === bot && j.schedule.job === job);
      if (!known) return undefined;
      if ((await parts.pauses.list()).some((p) => p.tenant === tenant && p.bot === bot))
        throw new IntrabotError('conflict', `bot ${bot} is paused on tenant ${tenant}: resume it first`);
      // not awaited: a job may run for minutes; its run record (running, then its outcome) is what the console shows
      parts.scheduler
        .runNow(tenant, bot, job)
        .catch((err: unknown) => parts.host.log.warn({ err, tenant, bot, job }, 'console: a job started from the console could not run'));
      return { started: true as const, tenant, bot, job };
    },
    alertInputs: async () =>
      alertsView({
        now: clock.now(),
        defaultTenant,
        deployments: table.all().map((d) => ({ tenant: d.tenant.config.id, bot: d.bot.name, manifest: d.manifest })),
        recent: activity.recent(),
        countsOf: (tenant, bot, input) => activity.countsOf(tenant, bot, input),
        lastOf: (tenant, bot, input) => activity.lastOf(tenant, bot, input),
        outbox: await readOutbox(),
      }),
    audit: async (query) =>
      auditView({ records: await parts.inbox.auditTrail.recent(EVERY_AUDIT_RECORD), tenants: config.tenants.map((t) => t.id) }, query, clock.now()),
    secrets: () => configuredSecrets(parts),
  };
}

/**
 * What each limiter key stands for: a tenant's token (`rateLimitKey(token)`), or an incoming webhook
 * (`rateLimitKey` of the path its messages are posted to, as the API client computes it), read from
 * the webhooks' URLs in `store.secrets`. Only the labels leave this function.
 */
async function rateLabels(parts: ConsoleWiringParts): Promise<Map<string, RateKeyLabel>> {
  const labels = new Map<string, RateKeyLabel>();
  for (const tenant of parts.config.tenants)
    labels.set(rateLimitKey(tenant.token), { kind: 'token', label: `Token of tenant ${tenant.id}`, tenant: tenant.id });
  for (const d of parts.table.all()) {
    const tenant = d.tenant.config;
    for (const [name, target] of Object.entries(d.manifest.targets)) {
      const secretName =
        'incoming' in target
          ? incomingSecretName(tenant.id, d.bot.name, name)
          : 'incoming_webhook' in target
            ? configuredIncomingSecretName(tenant.id, d.bot.name, name)
            : undefined;
      if (secretName === undefined) continue;
      const url = await parts.store.secrets.get(secretName).catch(() => undefined);
      const token = url === undefined ? undefined : incomingTokenOf(url);
      if (token === undefined) continue;
      labels.set(rateLimitKey(incomingPath(tenant, token)), {
        kind: 'incoming',
        label: `Incoming webhook of ${d.bot.name}, target ${name} (tenant ${tenant.id})`,
        tenant: tenant.id,
      });
    }
  }
  return labels;
}

/** The path the API client posts an incoming webhook's messages to (its rate-limit key is a hash of it). */
function incomingPath(tenant: ConsoleTenant, token: string): string {
  return apiUrl(apiRoot(tenant.base_url), fillPath(endpoints['incomingWebhooks.send'].path, { token })).pathname;
}

/** The token of an incoming-webhook URL, decoded; one with a malformed escape as written (it is still a secret to scrub). */
function incomingTokenOf(url: string): string | undefined {
  const token = /\/incoming\/([^/?#]+)/.exec(url)?.[1];
  if (token === undefined) return undefined;
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

/**
 * Every secret the runtime knows, for the console to scrub from its answers: the admin token, the
 * secret key, the tenants' tokens, the proxy keys, every value in `store.secrets` (signing secrets,
 * incoming-webhook URLs and their tokens) and the bots' alert credentials, report secrets and
 * configured webhook URLs.
 */
async function configuredSecrets(parts: ConsoleWiringParts): Promise<string[]> {
  const { config, store, table } = parts;
  const values: (string | undefined)[] = [config.admin_token, config.secret_key, SANDBOX_PROXY_KEY];
  for (const tenant of config.tenants) values.push(tenant.token);
  for (const key of config.proxy?.keys ?? []) values.push(key.key);
  for (const name of await store.secrets.names()) {
    const value = await store.secrets.get(name).catch(() => undefined);
    values.push(value, value === undefined ? undefined : incomingTokenOf(value));
  }
  for (const d of table.all()) {
    for (const input of d.manifest.alerts) {
      const auth = input.auth;
      if (auth) values.push('bearer' in auth ? auth.bearer : 'basic' in auth ? auth.basic.password : auth.query_token);
      values.push(input.signing?.secret);
    }
    for (const report of d.manifest.reports) values.push(report.secret);
    for (const target of Object.values(d.manifest.targets)) {
      if ('incoming_webhook' in target) values.push(target.incoming_webhook, incomingTokenOf(target.incoming_webhook));
    }
  }
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
