import type { FastifyInstance } from 'fastify';
import { wireAlertInputs } from '../alerts-wiring';
import type { RuntimeParts } from '../runtime-parts';

/** `POST /alerts/:bot/:input` and `/t/:tenant/alerts/...`: monitoring tools' notifications, watched for the console. */
export async function alertRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  // before the routes are declared: the activity is recorded by hooks on them
  parts.alertActivity.watch(app);
  await wireAlertInputs({
    app,
    table: parts.table,
    outbox: parts.delivery.outbox,
    state: parts.delivery.alertState,
    clock: parts.clock,
    defaultTenant: parts.config.tenants[0]!.id,
  });
}
