import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { registerReceiver } from '../../webhooks/receiver';
import type { DeploymentTable } from '../deployments';
import type { RuntimeMetrics } from '../operations/metrics';
import { acceptDelivery, type AcceptDeps } from './inbox-pipeline';
import type { InboxWorker } from './inbox-worker';

/** What the report route uses: where a report's secret and tenant are looked up, the inbox it is recorded in, and the counters. */
export interface ReportRouteDeps extends AcceptDeps {
  clock: Clock;
  table: Pick<DeploymentTable, 'reportTarget'>;
  metrics: Pick<RuntimeMetrics, 'deliveriesReceived' | 'deliveriesRejected'>;
  worker: Pick<InboxWorker, 'wake'>;
}

/** `POST /reports/:tenant/:bot`: the platform's signed outgoing reports, each checked against its own report's secret. */
export async function reportRoutes(app: FastifyInstance, deps: ReportRouteDeps): Promise<void> {
  await registerReceiver(app, {
    path: '/reports/:tenant/:bot',
    clock: deps.clock,
    resolve: (tenant, bot) => deps.table.reportTarget(tenant, bot),
    accept: (delivery) => acceptDelivery(deps, delivery),
    onAccepted: () => deps.worker.wake(),
    onRejected: (reason) => deps.metrics.deliveriesRejected.inc({ reason }),
  });
}
