import type { FastifyInstance } from 'fastify';
import { registerOpenApiRoutes } from '../../proxy/openapi-route';
import { outboxBusyFrom } from '../../proxy/outbox-busy';
import { registerProxy } from '../../proxy/plugin';
import type { RuntimeParts } from '../runtime-parts';

/** `/api/open/v1/*` and `/t/:tenant/api/open/v1/*` (the platform's API through the runtime's token and budget), `/openapi.json`, `/docs`. */
export async function proxyRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  const { config, metrics } = parts;
  await registerProxy(app, {
    tenants: parts.table.tenants().map((t) => ({ id: t.config.id, client: t.api })),
    defaultTenant: parts.table.defaultTenant(),
    keys: config.proxy?.keys ?? [],
    ...(config.proxy ? { botShare: config.proxy.bot_share, bodyLimit: config.proxy.body_limit } : {}),
    mode: config.mode,
    clock: parts.clock,
    outboxBusy: outboxBusyFrom(parts.store.outbox),
    budget: parts.store.rate,
    logger: { info: (obj, msg) => app.log.info(obj, msg) },
    onCall: (entry) => metrics.proxyCalls.inc({ key: entry.key ?? 'none', status: `${String(entry.status).slice(0, 1)}xx` }),
  });
  await registerOpenApiRoutes(app, config.public_url ? { publicUrl: config.public_url } : {});
}
