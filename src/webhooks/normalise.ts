import type { Envelope } from './envelope';
import { fromPlatformEvent } from './events';

/** What the runtime knows of a delivery once it is checked: named once here, carried by the inbox item. */
export interface NormalisedDelivery {
  deliveryId: string;
  /** The event name without the brand prefix (`post.created`), or the platform's name when it has none. */
  event: string;
  /** The second dedupe key of events recovered by listing too (`post.created:123`); undefined for others. */
  dedupeKey: string | undefined;
}

/** Events that create something with an id: recovered by listing, so deduplicated by entity too. */
const ENTITY_DEDUPED = new Set(['post.created', 'comment.created']);

/**
 * Names a checked envelope once, for the receiver and the runtime's `receive` door alike: the event
 * without the tenant's brand prefix and the dedupe key, which the inbox stores with the envelope so the
 * handler side never derives them again.
 *
 * @example normaliseDelivery(envelope, 'service') // { deliveryId: envelope.id, event: 'post.created', dedupeKey: 'post.created:42' }
 */
export function normaliseDelivery(envelope: Envelope, eventPrefix: string | undefined): NormalisedDelivery {
  const event = fromPlatformEvent(envelope.event, eventPrefix) ?? envelope.event;
  return { deliveryId: envelope.id, event, dedupeKey: dedupeKeyOf(event, envelope) };
}

function dedupeKeyOf(event: string, envelope: Envelope): string | undefined {
  const id = (envelope.payload as { id?: unknown }).id;
  return ENTITY_DEDUPED.has(event) && (typeof id === 'number' || typeof id === 'string') ? `${event}:${id}` : undefined;
}
