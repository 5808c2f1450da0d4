import type { FastifyInstance } from 'fastify';
import { handleError, handleNotFound } from './error-handler';
import type { RuntimeParts } from './runtime-parts';
import { adminRoutes } from './operations/admin-routes';
import { alertRoutes } from './alerts/alert-routes';
import { consoleRoutes } from './routes/console-routes';
import { hookRoutes } from './ingest/hook-routes';
import { opsRoutes } from './operations/ops-routes';
import { proxyRoutes } from './proxy/proxy-routes';
import { reportRoutes } from './ingest/report-routes';

/**
 * Every route of the runtime, each group an encapsulated plugin of its own, on the app the runtime owns or
 * in one scope of a host app (which then answers its own unknown URLs).
 */
export async function mountRoutes(app: FastifyInstance, parts: RuntimeParts, options: { ownsApp: boolean }): Promise<void> {
  app.setErrorHandler(handleError);
  if (options.ownsApp) app.setNotFoundHandler(handleNotFound);
  for (const routes of [hookRoutes, reportRoutes, opsRoutes, consoleRoutes, alertRoutes, proxyRoutes, adminRoutes]) await app.register(routes, parts);
}
