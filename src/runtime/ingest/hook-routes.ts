import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { registerReceiver } from '../../webhooks/receiver';
import type { DeploymentTable } from '../deployments';
import type { RuntimeMetrics } from '../operations/metrics';
import { acceptDelivery, type AcceptDeps } from './inbox-pipeline';
import type { InboxWorker } from './inbox-worker';

/**
 * What the signed routes use (events here, reports in `report-routes.ts`): where a delivery's secrets and
 * tenant are looked up, the inbox it is recorded in, the worker to wake, and the counters.
 */
export interface HookRouteDeps extends AcceptDeps {
  clock: Clock;
  table: Pick<DeploymentTable, 'receiverTarget' | 'reportTarget'>;
  metrics: Pick<RuntimeMetrics, 'deliveriesReceived' | 'deliveriesRejected'>;
  worker: Pick<InboxWorker, 'wake'>;
}

/**
 * `POST /hooks/:tenant/:bot`: the platform's signed events, `verify -> record -> 200`; the inbox worker
 * takes them from there. A `test` delivery (the ping) is acknowledged and not recorded.
 */
export async function hookRoutes(app: FastifyInstance, deps: HookRouteDeps): Promise<void> {
  await registerReceiver(app, {
    path: '/hooks/:tenant/:bot',
    clock: deps.clock,
    resolve: (tenant, bot, options) => deps.table.receiverTarget(tenant, bot, options),
    accept: (delivery) => acceptDelivery(deps, delivery),
    onAccepted: () => deps.worker.wake(),
    onRejected: (reason) => deps.metrics.deliveriesRejected.inc({ reason }),
    acknowledgeOnly: ['test'],
  });
}
