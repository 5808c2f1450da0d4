import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CommandUser } from '../../bots/commands';
import type { Envelope } from '../../webhooks/envelope';
import { toPlatformEvent, type EventName, type ReportName } from '../../webhooks/events';
import { checkPayload } from '../../webhooks/payload-check';
import type { PAYLOAD_SCHEMAS } from '../../webhooks/payloads';
import type { REPORT_SCHEMAS } from '../../webhooks/report';

/** An event's payload as a test writes it (before the schema's defaults). */
export type EventPayloadInput<E extends EventName> = z.input<(typeof PAYLOAD_SCHEMAS)[E]>;
/** A report's payload as a test writes it. */
export type ReportPayloadInput<R extends ReportName> = z.input<(typeof REPORT_SCHEMAS)[R]>;

/**
 * Who writes a command. `groups` and `is_manager` are what permissions are checked against; when the
 * user has neither, the check reads the user with `users.get`, as the runtime does (stub it).
 */
export type TestUser = { id: number; name: string; email?: string } & CommandUser;

/** Where and how a command is written. */
export interface CommandOptions {
  /** Default: `{ id: 1001, name: 'Test User' }`. */
  user?: TestUser;
  /** The wall it is written on. Default: `{ id: 1, name: 'Company' }`. */
  wall?: { id: number; name?: string };
  /** Written as a comment under this post (`comment.created`) instead of as a post of its own. */
  commentOn?: number;
  /** The id of the post (or comment) holding the command. Default: a new one, counting from 5001. */
  id?: number;
}

export const DEFAULT_USER: TestUser = { id: 1001, name: 'Test User', email: 'test.user@example.test' };
const DEFAULT_WALL = { id: 1, name: 'Company' };

/** The envelope the platform would deliver for `event` (short name) on `tenant`. */
export function envelopeOf(event: string, payload: Record<string, unknown>, at: number, customer: string, recovered = false): Envelope {
  return {
    id: randomUUID(),
    event: toPlatformEvent(event, 'service'),
    version: 'v1',
    timestamp: Math.floor(at / 1000),
    customer,
    payload,
    ...(recovered ? { recovered: true } : {}),
  };
}

/**
 * Checks a payload as the runtime does before a handler gets it (`checkPayload`, the one rule both share):
 * a malformed one is refused, naming the field, where the runtime would dead-letter the delivery.
 */
export function checkedEventPayload<E extends EventName>(event: E, payload: EventPayloadInput<E>): Record<string, unknown> {
  checkPayload(event, payload);
  return payload as Record<string, unknown>;
}

export function checkedReportPayload<R extends ReportName>(report: R, payload: ReportPayloadInput<R>): Record<string, unknown> {
  checkPayload(report, payload);
  return payload as Record<string, unknown>;
}

/** The `post.created` or `comment.created` payload of an employee writing `text`. */
export function commandPayload(
  text: string,
  options: CommandOptions,
  id: number,
  at: number,
): { event: 'post.created' | 'comment.created'; payload: Record<string, unknown> } {
  const user = options.user ?? DEFAULT_USER;
  const wall = { ...DEFAULT_WALL, ...options.wall };
  const author = { id: user.id, name: user.name, email: user.email ?? `user${user.id}@example.test` };
  const created = new Date(at).toISOString();
  const times = { created_at: created, updated_at: created };
  if (options.commentOn !== undefined) {
    return { event: 'comment.created', payload: { id, body: text, post_id: options.commentOn, wall_id: wall.id, author, ...times } };
  }
  return { event: 'post.created', payload: { id, body: text, wall_id: wall.id, wall_name: wall.name ?? DEFAULT_WALL.name, author, ...times } };
}
