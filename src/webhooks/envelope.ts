import { z } from 'zod';

/**
 * One outgoing-webhook or outgoing-report delivery (spec: Events, Outgoing webhooks, "Envelope").
 * `event` is the full platform name (`service.post.created`); the payload is checked separately,
 * per event, so an envelope with an unfamiliar payload still parses.
 */
export const EnvelopeSchema = z.looseObject({
  id: z.uuid(),
  event: z.string().min(1),
  version: z.literal('v1'),
  /** Unix seconds when the event happened; not the signing time (that is the `Timestamp` header). */
  timestamp: z.int().nonnegative(),
  customer: z.string().min(1),
  payload: z.looseObject({}),
});

export type Envelope = z.infer<typeof EnvelopeSchema>;
