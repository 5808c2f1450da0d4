import type { OutboxEntryInput } from './entry';

/**
 * What an outbox entry says, for people (the console's outbox and deliveries, issue #24: "you cannot see
 * what your bot said"): a post's or comment's body, a message's text, a notification's or announcement's
 * title and text; for what carries no text, what it does. Entries hold no secret (an incoming webhook is
 * a reference, never its URL); the console still scrubs configured secrets from every answer.
 *
 * @example entryText({ kind: 'post', tenant: 't', wallId: 3, body: 'Release 4.2 is out' }) // 'Release 4.2 is out'
 */
export function entryText(entry: OutboxEntryInput): string {
  switch (entry.kind) {
    case 'post':
    case 'comment':
      return entry.body;
    case 'dm':
      return entry.text;
    case 'incoming':
      return typeof entry.payload.text === 'string' ? entry.payload.text : String(entry.payload.title ?? entry.action);
    case 'notification':
      return titled(entry.notification, ['text', 'body', 'message']);
    case 'announcement':
      return titled(entry.announcement, ['body', 'text', 'content']);
    case 'event':
      return titled(entry.event, ['description', 'body']);
    case 'award':
      return `${entry.rows.length} row(s) on achievement ${entry.achievementId}`;
    case 'api':
      return entry.endpointId;
  }
}

/** "Title: text" from a record whose fields the platform names (spec: not shown for every kind). */
function titled(record: Record<string, unknown>, textFields: readonly string[]): string {
  const title = typeof record.title === 'string' ? record.title : '';
  const text = textFields.map((field) => record[field]).find((value): value is string => typeof value === 'string') ?? '';
  return title && text ? `${title}: ${text}` : title || text;
}

/** A text cut to `max` characters (an ellipsis marks the cut), whitespace kept as written. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
