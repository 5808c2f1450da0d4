import { kindOf, type OutboxEntryInput } from './kinds/send-kinds';
import type { SendSummary } from './kinds/send-kind';

/**
 * What an outbox entry says, for people (the console's outbox and deliveries, issue #24: "you cannot see
 * what your bot said"): a post's or comment's body, a message's text, a notification's or announcement's
 * title and text; for what carries no text, what it does (each kind's `summary`). Entries hold no secret
 * (an incoming webhook is a reference, never its URL); the console still scrubs configured secrets from
 * every answer.
 *
 * @example entryText({ kind: 'post', tenant: 't', wallId: 3, body: 'Release 4.2 is out' }) // 'Release 4.2 is out'
 */
export function entryText(entry: OutboxEntryInput): string {
  const summary = kindOf(entry).summary(entry);
  if (!('title' in summary)) return summary.text;
  const title = typeof summary.title === 'string' ? summary.title : '';
  return title && summary.text ? `${title}: ${summary.text}` : title || summary.text;
}

/**
 * An entry in the fewest words, for one line of `intrabot outbox`: a titled entry's title alone, else
 * what `entryText` says.
 *
 * @example entryHeadline({ kind: 'notification', tenant: 't', notification: { title: 'Maintenance', body: 'Tonight' } }) // 'Maintenance'
 */
export function entryHeadline(entry: OutboxEntryInput): string {
  const summary: SendSummary = kindOf(entry).summary(entry);
  return 'title' in summary ? String(summary.title ?? '') : summary.text;
}

/** A text cut to `max` characters (an ellipsis marks the cut), whitespace kept as written. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
