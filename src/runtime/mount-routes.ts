import type { FastifyInstance } from 'fastify';
import { consoleRoutes } from '../console/runtime-wiring';
import type { ConsoleWiringParts } from '../console/console-wiring-parts';
import { alertRoutes, type AlertRouteDeps } from './alerts/alert-routes';
import { handleError, handleNotFound } from './error-handler';
import { deliveryRoutes } from './ingest/delivery-routes';
import { hookRoutes, type HookRouteDeps } from './ingest/hook-routes';
import { reportRoutes } from './ingest/report-routes';
import { jobRoutes } from './jobs/job-routes';
import { adminRoutes, type AdminRouteDeps } from './operations/admin-routes';
import { opsRoutes, type OpsRouteDeps } from './operations/ops-routes';
import { pauseRoutes } from './pause/pause-routes';
import { proxyRoutes, type ProxyRouteDeps } from './proxy/proxy-routes';
import { rotationRoutes } from './rotation/rotation-routes';
import type { RuntimeParts } from './runtime-parts';

/**
 * Every route of the runtime, each group an encapsulated plugin of its own given only the parts it uses,
 * on the app the runtime owns or in one scope of a host app (which then answers its own unknown URLs).
 * The one place that hands parts to routes: no route plugin sees `RuntimeParts`.
 */
export async function mountRoutes(app: FastifyInstance, parts: RuntimeParts, options: { ownsApp: boolean }): Promise<void> {
  app.setErrorHandler(handleError);
  if (options.ownsApp) app.setNotFoundHandler(handleNotFound);
  const signed = signedRouteDeps(parts);
  await app.register(hookRoutes, signed);
  await app.register(reportRoutes, signed);
  await app.register(opsRoutes, opsDeps(parts));
  await app.register(consoleRoutes, consoleParts(parts));
  await app.register(alertRoutes, alertDeps(parts));
  await app.register(proxyRoutes, proxyDeps(parts));
  await app.register(adminRoutes, adminDeps(parts));
}

/** The signed routes' parts: events (`/hooks`) and reports (`/reports`) are received the same way. */
function signedRouteDeps(parts: RuntimeParts): HookRouteDeps {
  const { clock, table, store, metrics } = parts;
  return { clock, table, store, metrics, worker: parts.inbox.worker };
}

function opsDeps(parts: RuntimeParts): OpsRouteDeps {
  const { config, store, metrics, registry, table, pauses, limiter, status } = parts;
  return { config, store, metrics, registry, table, pauses, limiter, status, files: parts.delivery.files };
}

function consoleParts(parts: RuntimeParts): ConsoleWiringParts {
  const { config, clock, host, store, table, registry, scheduler, rateHistory, alertActivity, pauses, status } = parts;
  const { deliveryLog, auditTrail, worker } = parts.inbox;
  return {
    config,
    clock,
    host,
    store,
    table,
    registry,
    scheduler,
    rateHistory,
    alertActivity,
    pauses,
    status,
    inbox: { deliveryLog, auditTrail, worker },
    delivery: { sender: parts.delivery.sender },
  };
}

function alertDeps(parts: RuntimeParts): AlertRouteDeps {
  const { clock, table } = parts;
  return {
    clock,
    table,
    deployments: parts.inbox.bots,
    alertState: parts.delivery.alertState,
    activity: parts.alertActivity,
    snsFetch: parts.snsFetch,
  };
}

function proxyDeps(parts: RuntimeParts): ProxyRouteDeps {
  const { config, clock, table, store, metrics } = parts;
  return { config, clock, table, store, metrics };
}

/** The admin scope's guard settings, and each group behind it as its own plugin with its own parts. */
function adminDeps(parts: RuntimeParts): AdminRouteDeps {
  const { scheduler, store, pauses, rotations } = parts;
  const { deliveryLog, auditTrail, worker } = parts.inbox;
  return {
    config: parts.config,
    groups: [
      (admin) => admin.register(jobRoutes, { scheduler }),
      (admin) => admin.register(deliveryRoutes, { store, deliveryLog, auditTrail, worker }),
      (admin) => admin.register(pauseRoutes, { pauses }),
      (admin) => admin.register(rotationRoutes, { rotations }),
    ],
  };
}
