import { createHash } from 'node:crypto';

/**
 * The outbox entry id of an alert input's message, made of its stable key (a message part's dedupe key,
 * an edit's): a tool's retry, or a retried run, never queues it twice.
 *
 * @example alertEntryId('sandbox', 'alerts', 'incident-edit:80001:ab12') // 'alert-' + 32 hex digits
 */
export function alertEntryId(tenant: string, bot: string, key: string): string {
  return `alert-${createHash('sha256').update(`${tenant}\n${bot}\n${key}`).digest('hex').slice(0, 32)}`;
}
