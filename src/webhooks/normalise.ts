import { createHash } from 'node:crypto';
import type { Envelope } from './envelope';
import { fromPlatformEvent, isEventName } from './events';

/** What the runtime knows of a delivery once it is checked: named once here, carried by the inbox item. */
export interface NormalisedDelivery {
  deliveryId: string;
  /** The event name without the brand prefix (`post.created`), or the platform's name when it has none. */
  event: string;
  /**
   * The second dedupe key, naming the event rather than the delivery (`post.created:123`): the same event
   * comes again under another delivery id when it is recovered by listing, or when two endpoints receive it
   * (a secret rotation's overlap). Undefined for `test`, reports, and events whose payload has no id.
   */
  dedupeKey: string | undefined;
}

/** Events that create something with an id: recovered by listing too, which knows the id alone. */
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

/**
 * `post.created` and `comment.created` by their entity's id alone (what recovery knows). Every other event
 * by its entity's id and a digest of its payload: one event delivered to two endpoints carries the same
 * payload, while a second edit of one comment, a form response's next status or a later alarm carries
 * another (an update's payload holds the new state), so it is handled as the new event it is. Reports
 * have no entity (two days may report the same figures) and the ping is never recorded: neither has a key.
 */
function dedupeKeyOf(event: string, envelope: Envelope): string | undefined {
  const id = (envelope.payload as { id?: unknown }).id;
  if (event === 'test' || !isEventName(event) || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  if (ENTITY_DEDUPED.has(event)) return `${event}:${id}`;
  const digest = createHash('sha256').update(JSON.stringify(envelope.payload)).digest('hex').slice(0, 32);
  return `${event}:${id}:${digest}`;
}
