import type { SandboxModule } from '../module';
import { deliveryEngineFor } from '../delivery/engine-registry';
import { startReportSchedule } from '../delivery/report-runner';
import { seedTodos } from '../seed/todos';
import { registerDeliveryControl } from './webhooks/delivery-control';
import { registerReportControl } from './webhooks/report-control';
import { registerWebhookManagement } from './webhooks/webhook-management';

/**
 * Outgoing webhooks (spec: Outgoing webhook management; Events) and outgoing reports: the management
 * API, the delivery engine listening to the platform's events, the report schedule, and the control
 * API's delivery log and report set-up.
 */
export const webhooksModule: SandboxModule = {
  name: 'webhooks',
  api(router, ctx) {
    registerWebhookManagement(router, ctx);
  },
  control(app, ctx) {
    registerDeliveryControl(app, ctx);
    registerReportControl(app, ctx);
  },
  start(ctx) {
    const engine = deliveryEngineFor(ctx);
    engine.start();
    startReportSchedule(ctx, engine);
  },
  seed(ctx, options) {
    if (options.seed === 'demo') seedTodos(ctx);
  },
};
