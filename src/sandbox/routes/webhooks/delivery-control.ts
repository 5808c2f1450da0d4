import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { deliveryEngineFor } from '../../delivery/engine-registry';
import { DELIVERY_KIND, type DeliveryAttemptRecord } from '../../delivery/records';
import { validate } from '../../http/validate';

const DeliveriesQuerySchema = z.object({
  endpoint_id: z.coerce.number().int().positive().optional(),
  report_id: z.coerce.number().int().positive().optional(),
  event: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

function serializeAttempt(ctx: SandboxContext, a: DeliveryAttemptRecord): Record<string, unknown> {
  return {
    id: a.id,
    endpoint_id: a.endpoint_id,
    report_id: a.report_id,
    url: a.url,
    event: a.event,
    delivery_id: a.delivery_id,
    attempt: a.attempt,
    ok: a.ok,
    status_code: a.status_code,
    error: a.error,
    request_headers: a.request_headers,
    body: a.body,
    at: ctx.iso(a.created_at),
  };
}

/**
 * `GET /_sandbox/deliveries` — every outgoing attempt, newest first (the platform's delivery log);
 * `POST /_sandbox/deliveries/settle` waits until no attempt is in flight (deliveries never hold up
 * the API request that caused them, so a caller that wants to read the log waits here).
 */
export function registerDeliveryControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/deliveries', async (request) => {
    const query = validate(DeliveriesQuerySchema, request.query);
    const rows = ctx.db
      .filter<DeliveryAttemptRecord>(
        DELIVERY_KIND.attempts,
        (a) =>
          (query.endpoint_id === undefined || a.endpoint_id === query.endpoint_id) &&
          (query.report_id === undefined || a.report_id === query.report_id) &&
          (query.event === undefined || a.event === query.event),
      )
      .reverse()
      .slice(0, query.limit);
    return { data: rows.map((a) => serializeAttempt(ctx, a)) };
  });

  app.post('/_sandbox/deliveries/settle', async () => {
    await deliveryEngineFor(ctx).settle();
    return { ok: true };
  });
}
