import type { ReceiverSteps, ReceiverTarget, RejectReason, AcceptedDelivery } from '../../webhooks/receiver';
import type { DeploymentTable } from '../deployments';
import type { RuntimeMetrics } from '../operations/metrics';
import { acceptDelivery, type AcceptDeps } from './inbox-pipeline';
import type { InboxWorker } from './inbox-worker';

/**
 * What the signed routes use (events, and reports): where a delivery's secrets and tenant are looked
 * up, the inbox it is recorded in, the worker to wake, and the counters.
 */
export interface InboxIngestDeps extends AcceptDeps {
  table: Pick<DeploymentTable, 'receiverTarget' | 'reportTarget'>;
  metrics: Pick<RuntimeMetrics, 'deliveriesReceived' | 'deliveriesRejected'>;
  worker: Pick<InboxWorker, 'wake'>;
}

/**
 * The runtime's steps of a signed route (`ReceiverSteps`): the target of `/hooks` (the bot's endpoint
 * secrets) or of `/reports` (each report's secret); a verified delivery recorded in the inbox
 * (`acceptDelivery`); the inbox worker woken after the 200; each refusal counted by its reason.
 */
export class InboxIngest implements ReceiverSteps {
  constructor(
    private readonly deps: InboxIngestDeps,
    private readonly kind: 'events' | 'reports',
  ) {}

  resolve(tenant: string, bot: string, options?: { fresh?: boolean }): Promise<ReceiverTarget | undefined> | ReceiverTarget | undefined {
    return this.kind === 'events' ? this.deps.table.receiverTarget(tenant, bot, options) : this.deps.table.reportTarget(tenant, bot);
  }

  accept(delivery: AcceptedDelivery): Promise<{ duplicate: boolean }> {
    return acceptDelivery(this.deps, delivery);
  }

  onAccepted(): void {
    this.deps.worker.wake();
  }

  onRejected(reason: RejectReason): void {
    this.deps.metrics.deliveriesRejected.inc({ reason });
  }
}
