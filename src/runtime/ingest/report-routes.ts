import type { FastifyInstance } from 'fastify';
import { registerReceiver } from '../../webhooks/receiver';
import { acceptDelivery } from './inbox-pipeline';
import type { RuntimeParts } from '../runtime-parts';

/** `POST /reports/:tenant/:bot`: the platform's signed outgoing reports, each checked against its own report's secret. */
export async function reportRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  await registerReceiver(app, {
    path: '/reports/:tenant/:bot',
    clock: parts.clock,
    resolve: (tenant, bot) => parts.table.reportTarget(tenant, bot),
    accept: (delivery) => acceptDelivery(parts, delivery),
    onAccepted: () => parts.inbox.worker.wake(),
    onRejected: (reason) => parts.metrics.deliveriesRejected.inc({ reason }),
  });
}
