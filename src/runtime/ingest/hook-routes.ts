import type { FastifyInstance } from 'fastify';
import { registerReceiver } from '../../webhooks/receiver';
import { acceptDelivery } from './inbox-pipeline';
import type { RuntimeParts } from '../runtime-parts';

/**
 * `POST /hooks/:tenant/:bot`: the platform's signed events, `verify -> record -> 200`; the inbox worker
 * takes them from there. A `test` delivery (the ping) is acknowledged and not recorded.
 */
export async function hookRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  await registerReceiver(app, {
    path: '/hooks/:tenant/:bot',
    clock: parts.clock,
    resolve: (tenant, bot, options) => parts.table.receiverTarget(tenant, bot, options),
    accept: (delivery) => acceptDelivery(parts, delivery),
    onAccepted: () => parts.inbox.worker.wake(),
    onRejected: (reason) => parts.metrics.deliveriesRejected.inc({ reason }),
    acknowledgeOnly: ['test'],
  });
}
