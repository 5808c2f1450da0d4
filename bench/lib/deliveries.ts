import { randomUUID } from 'node:crypto';
import { sign } from '../../src/webhooks/signature';

/** Where signed deliveries go and what they are signed with. */
export interface DeliveryTarget {
  secret: string;
  customer: string;
  /** The brand part of event names (`service`). */
  eventPrefix: string;
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * A `post.created` delivery as the platform sends it (spec: Events, Outgoing webhooks): a fresh
 * envelope id and post id each time (no dedupe hit), signed over `<timestamp>.<raw body>`.
 */
export function signedDelivery(target: DeliveryTarget, postId: number, nowMs: number): SignedDelivery {
  const seconds = Math.floor(nowMs / 1000);
  const body = JSON.stringify({
    id: randomUUID(),
    event: `${target.eventPrefix}.post.created`,
    version: 'v1',
    timestamp: seconds,
    customer: target.customer,
    payload: { id: postId, wall_id: 1, body: `bench post ${postId}`, author: { id: 10, name: 'Bench Author' }, created_at: new Date(nowMs).toISOString() },
  });
  const timestamp = String(seconds);
  return {
    body,
    headers: { 'content-type': 'application/json', timestamp, signature: sign(target.secret, timestamp, body) },
  };
}
