import { randomUUID } from 'node:crypto';
import { sign } from '../../src/webhooks/signature';

/** What a post.created delivery says of its post; the rest is the demo tenant's Company wall and an employee. */
export interface PostFields {
  id: number;
  body: string;
  wall_id?: number;
  author?: { id: number; name: string; email: string };
}

/**
 * A `post.created` envelope as the platform sends it (spec: Outgoing webhooks), for the sandbox tenant,
 * stamped with the clock's time.
 */
export function postCreatedEnvelope(clock: { now(): number }, post: PostFields, id: string = randomUUID()) {
  const at = new Date(clock.now()).toISOString();
  return {
    id,
    event: 'service.post.created',
    version: 'v1' as const,
    timestamp: Math.floor(clock.now() / 1000),
    customer: 'sandbox',
    payload: {
      wall_id: 1,
      wall_name: 'Company',
      author: { id: 10, name: 'Ada', email: 'ada@example.com' },
      ...post,
      created_at: at,
      updated_at: at,
    },
  };
}

/** An envelope as the platform delivers it over HTTP: its JSON text and the headers that sign it with `secret`. */
export function signedDelivery(secret: string, envelope: { timestamp: number }, headers: Record<string, string> = {}) {
  const body = JSON.stringify(envelope);
  const at = envelope.timestamp;
  return { body, headers: { 'content-type': 'application/json', timestamp: String(at), signature: sign(secret, at, body), ...headers } };
}
