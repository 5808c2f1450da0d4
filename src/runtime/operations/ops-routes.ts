import type { FastifyInstance } from 'fastify';
import { rateLimitKey } from '../../api/rate-limiter';
import { basename, sep } from 'node:path';
import { readinessRoute, type BotsReadiness } from './readiness';
import { recordQueueGauges } from './queue-gauges';
import type { RuntimeParts } from '../runtime-parts';

/**
 * What operators and the platform poll: `/livez` (the process is alive: Kubernetes' liveness probe),
 * `/healthz` (the process works), `/readyz` (it can do its job),
 * `/metrics` (Prometheus text; the queue depths and rate budgets are read when scraped), and the signed
 * `/files/...` links the platform downloads media from.
 */
export async function opsRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  const { metrics, store, config } = parts;
  metrics.onCollect(async () => {
    await recordQueueGauges(metrics, store);
    const paused = new Set((await parts.pauses.list()).map((p) => `${p.tenant}/${p.bot}`));
    for (const d of parts.table.all()) {
      const labels = { tenant: d.tenant.config.id, bot: d.bot.name };
      metrics.botPaused.set(labels, paused.has(`${labels.tenant}/${labels.bot}`) ? 1 : 0);
    }
    for (const tenant of config.tenants) {
      const budget = parts.limiter.lastObserved(rateLimitKey(tenant.token));
      if (budget) metrics.rateBudgetRemaining.set({ tenant: tenant.id }, budget.remaining);
    }
  });
  parts.delivery.files.register(app);
  // reads neither the store nor the platform, on purpose: a liveness probe that failed with them would have
  // the process restarted during a store outage or while start-up waits on the platform, which a restart
  // cannot mend (readiness takes traffic away instead); it fails only when the event loop no longer answers
  app.get('/livez', async () => ({ ok: true }));
  app.get('/healthz', async () => ({ ok: true }));
  app.get(
    '/readyz',
    readinessRoute({
      started: () => parts.status.ready,
      waiting: () => parts.status.waiting,
      provisioning: () => parts.status.provisioning.snapshot(),
      store,
      bots: () => botsReadiness(parts),
      paused: () => parts.pauses.list(),
    }),
  );
  app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send(await metrics.render()));
}

/** The bots as `/readyz` reports them: loaded, not loaded, and switched off by provisioning. */
function botsReadiness(parts: RuntimeParts): BotsReadiness {
  const deployments = parts.table.all();
  const switchedOff = deployments.flatMap((d) => {
    const provisioned = parts.table.provisionedBot(d.tenant.config.id, d.bot.name);
    return provisioned && !provisioned.enabled ? [{ tenant: d.tenant.config.id, bot: d.bot.name, reason: provisioned.reason ?? 'switched off' }] : [];
  });
  return {
    loaded: parts.registry.bots.length,
    // an unauthenticated route: the reason names its files relative to the bots folder, never where it lives
    notLoaded: parts.registry.failures.map((f) => ({
      bot: f.name ?? basename(f.dir),
      reason: f.error.message.replaceAll(`${parts.config.bots_dir}${sep}`, ''),
    })),
    deployments: deployments.length,
    switchedOff,
  };
}
