import { z } from 'zod';

/**
 * The W3C trace context kept with an inbox item and an outbox entry, so whichever replica takes the item
 * continues the trace that queued it (https://www.w3.org/TR/trace-context/). `deliveryId` names the
 * delivery the trace belongs to, for the spans of the entries its handler queued. Ids only: never a
 * secret or a message body.
 */
export const TraceCarrierSchema = z.object({
  traceparent: z.string().regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'expected a W3C traceparent'),
  tracestate: z.string().max(512).optional(),
  deliveryId: z.string().min(1).max(200).optional(),
});
export type TraceCarrier = z.infer<typeof TraceCarrierSchema>;
