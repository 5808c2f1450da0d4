import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { registerOpenApiRoutes } from '../../proxy/openapi-route';
import { outboxBusyFrom } from '../../proxy/outbox-busy';
import { registerProxy } from '../../proxy/plugin';
import type { Store } from '../../store/store';
import type { RuntimeConfig } from '../config/config';
import type { DeploymentTable } from '../deployments';
import type { RuntimeMetrics } from '../operations/metrics';

/** What the proxy routes use: the tenants' API clients, the proxy's settings, the outbox (to yield to it), the shared budget, a counter. */
export interface ProxyRouteDeps {
  config: Pick<RuntimeConfig, 'proxy' | 'mode' | 'public_url'>;
  clock: Clock;
  table: Pick<DeploymentTable, 'tenants' | 'defaultTenant'>;
  store: Pick<Store, 'outbox' | 'rate'>;
  metrics: Pick<RuntimeMetrics, 'proxyCalls'>;
}

/** `/api/open/v1/*` and `/t/:tenant/api/open/v1/*` (the platform's API through the runtime's token and budget), `/openapi.json`, `/docs`. */
export async function proxyRoutes(app: FastifyInstance, deps: ProxyRouteDeps): Promise<void> {
  const { config, metrics } = deps;
  await registerProxy(app, {
    tenants: deps.table.tenants().map((t) => ({ id: t.config.id, client: t.api })),
    defaultTenant: deps.table.defaultTenant(),
    keys: config.proxy?.keys ?? [],
    ...(config.proxy ? { botShare: config.proxy.bot_share, bodyLimit: config.proxy.body_limit } : {}),
    mode: config.mode,
    clock: deps.clock,
    outboxBusy: outboxBusyFrom(deps.store.outbox),
    budget: deps.store.rate,
    logger: { info: (obj, msg) => app.log.info(obj, msg) },
    onCall: (entry) => metrics.proxyCalls.inc({ key: entry.key ?? 'none', status: `${String(entry.status).slice(0, 1)}xx` }),
  });
  await registerOpenApiRoutes(app, config.public_url ? { publicUrl: config.public_url } : {});
}
