import type { FastifyInstance } from 'fastify';
import { rateLimitKey } from '../../api/rate-limiter';
import { basename, sep } from 'node:path';
import type { SharedRateLimiter } from '../../api/shared-rate-limiter';
import type { BotRegistry } from '../../bots/registry';
import type { Store } from '../../store/store';
import type { RuntimeConfig } from '../config/config';
import type { DeploymentTable } from '../deployments';
import type { BotPauses } from '../pause/bot-pauses';
import type { SignedFiles } from '../sending/signed-files';
import type { RuntimeStatus } from '../start/runtime-status';
import type { RuntimeMetrics } from './metrics';
import { readinessRoute, type BotsReadiness } from './readiness';
import { recordQueueGauges } from './queue-gauges';

/** What the operators' routes read: the metrics and what they gauge when scraped, what `/readyz` reports, and the signed files. */
export interface OpsRouteDeps {
  config: Pick<RuntimeConfig, 'tenants' | 'bots_dir'>;
  store: Pick<Store, 'inbox' | 'outbox' | 'kind' | 'ping'>;
  metrics: RuntimeMetrics;
  registry: Pick<BotRegistry, 'bots' | 'failures'>;
  table: Pick<DeploymentTable, 'all' | 'provisionedBot'>;
  pauses: Pick<BotPauses, 'list'>;
  limiter: Pick<SharedRateLimiter, 'lastObserved'>;
  status: RuntimeStatus;
  files: Pick<SignedFiles, 'register'>;
}

/**
 * What operators and the platform poll: `/livez` (the process is alive: Kubernetes' liveness probe),
 * `/healthz` (the process works), `/readyz` (it can do its job),
 * `/metrics` (Prometheus text; the queue depths and rate budgets are read when scraped), and the signed
 * `/files/...` links the platform downloads media from.
 */
export async function opsRoutes(app: FastifyInstance, deps: OpsRouteDeps): Promise<void> {
  const { metrics, store, config } = deps;
  metrics.onCollect(async () => {
    await recordQueueGauges(metrics, store);
    const paused = new Set((await deps.pauses.list()).map((p) => `${p.tenant}/${p.bot}`));
    for (const d of deps.table.all()) {
      const labels = { tenant: d.tenant.config.id, bot: d.bot.name };
      metrics.botPaused.set(labels, paused.has(`${labels.tenant}/${labels.bot}`) ? 1 : 0);
    }
    for (const tenant of config.tenants) {
      const budget = deps.limiter.lastObserved(rateLimitKey(tenant.token));
      if (budget) metrics.rateBudgetRemaining.set({ tenant: tenant.id }, budget.remaining);
    }
  });
  deps.files.register(app);
  // reads neither the store nor the platform, on purpose: a liveness probe that failed with them would have
  // the process restarted during a store outage or while start-up waits on the platform, which a restart
  // cannot mend (readiness takes traffic away instead); it fails only when the event loop no longer answers
  app.get('/livez', async () => ({ ok: true }));
  app.get('/healthz', async () => ({ ok: true }));
  app.get(
    '/readyz',
    readinessRoute({
      started: () => deps.status.ready,
      waiting: () => deps.status.waiting,
      provisioning: () => deps.status.provisioning.snapshot(),
      store,
      bots: () => botsReadiness(deps),
      paused: () => deps.pauses.list(),
    }),
  );
  app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send(await metrics.render()));
}

/** The bots as `/readyz` reports them: loaded, not loaded, and switched off by provisioning. */
function botsReadiness(deps: Pick<OpsRouteDeps, 'config' | 'registry' | 'table'>): BotsReadiness {
  const deployments = deps.table.all();
  const switchedOff = deployments.flatMap((d) => {
    const provisioned = deps.table.provisionedBot(d.tenant.config.id, d.bot.name);
    return provisioned && !provisioned.enabled ? [{ tenant: d.tenant.config.id, bot: d.bot.name, reason: provisioned.reason ?? 'switched off' }] : [];
  });
  return {
    loaded: deps.registry.bots.length,
    // an unauthenticated route: the reason names its files relative to the bots folder, never where it lives
    notLoaded: deps.registry.failures.map((f) => ({
      bot: f.name ?? basename(f.dir),
      reason: f.error.message.replaceAll(`${deps.config.bots_dir}${sep}`, ''),
    })),
    deployments: deployments.length,
    switchedOff,
  };
}
