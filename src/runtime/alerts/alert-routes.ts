import type { FastifyInstance } from 'fastify';
import { registerAlertInputs } from '../../alerts/input-route';
import type { RuntimeParts } from '../runtime-parts';
import { TableAlertDeployments } from './table-alert-deployments';

/** `POST /alerts/:bot/:input` and `/t/:tenant/alerts/...`: monitoring tools' notifications, watched for the console. */
export async function alertRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  // before the routes are declared: the activity is recorded by hooks on them
  parts.alertActivity.watch(app);
  await registerAlertInputs(app, {
    deployments: new TableAlertDeployments(parts.table, parts.delivery.outbox, parts.inbox.runner),
    clock: parts.clock,
    // shared with the outbox sender, which records the posts of firing messages in it
    state: parts.delivery.alertState,
    logger: app.log,
    defaultTenant: parts.table.defaultTenant(),
  });
}
