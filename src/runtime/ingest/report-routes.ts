import type { FastifyInstance } from 'fastify';
import { registerReceiver } from '../../webhooks/receiver';
import type { HookRouteDeps } from './hook-routes';
import { acceptDelivery } from './inbox-pipeline';

/** `POST /reports/:tenant/:bot`: the platform's signed outgoing reports, each checked against its own report's secret. */
export async function reportRoutes(app: FastifyInstance, deps: HookRouteDeps): Promise<void> {
  await registerReceiver(app, {
    path: '/reports/:tenant/:bot',
    clock: deps.clock,
    resolve: (tenant, bot) => deps.table.reportTarget(tenant, bot),
    accept: (delivery) => acceptDelivery(deps, delivery),
    onAccepted: () => deps.worker.wake(),
    onRejected: (reason) => deps.metrics.deliveriesRejected.inc({ reason }),
  });
}
