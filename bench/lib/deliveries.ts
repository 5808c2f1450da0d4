import { createHmac, randomUUID } from 'node:crypto';
import { sign } from '../../src/webhooks/signature';

/** Where signed deliveries go and what they are signed with. */
export interface DeliveryTarget {
  secret: string;
  customer: string;
  /** The brand part of event names (`service`). */
  eventPrefix: string;
}

/**
 * How a delivery is signed: `platform` as the platform signs for intrabot (spec: Events, Outgoing
 * webhooks), `github` as GitHub signs for `@octokit/webhooks` (the durable peer of `bench/ingest.ts`).
 */
export type Signing = 'platform' | 'github';

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * A `post.created` delivery as the platform sends it: a fresh envelope id and post id each time (no
 * dedupe hit). The body is the same whatever the signing, so every server of the ingest bench parses
 * the same bytes; only the headers differ. `platform`: `Timestamp` and `Signature`, HMAC-SHA256 over
 * `<timestamp>.<raw body>`. `github`: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw
 * body>`, the event name in `X-GitHub-Event` and the envelope id as `X-GitHub-Delivery` (the id the
 * peer enqueues its job under).
 */
export function signedDelivery(target: DeliveryTarget, postId: number, nowMs: number, signing: Signing = 'platform'): SignedDelivery {
  const seconds = Math.floor(nowMs / 1000);
  const id = randomUUID();
  const event = `${target.eventPrefix}.post.created`;
  const body = JSON.stringify({
    id,
    event,
    version: 'v1',
    timestamp: seconds,
    customer: target.customer,
    // every field the spec lists for service.post.created: the runtime checks them before a handler runs
    payload: {
      id: postId,
      wall_id: 1,
      wall_name: 'Company',
      body: `bench post ${postId}`,
      author: { id: 10, name: 'Bench Author', email: 'bench.author@example.test' },
      created_at: new Date(nowMs).toISOString(),
      updated_at: new Date(nowMs).toISOString(),
    },
  });
  if (signing === 'github') {
    const signature = `sha256=${createHmac('sha256', target.secret).update(body).digest('hex')}`;
    return { body, headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': id, 'x-hub-signature-256': signature } };
  }
  const timestamp = String(seconds);
  return {
    body,
    headers: { 'content-type': 'application/json', timestamp, signature: sign(target.secret, timestamp, body) },
  };
}
