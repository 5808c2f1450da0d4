import { DEFAULT_EVENT_PREFIX, filterKindOf, isEventName, toPlatformEvent } from './events';

/** One subscription as a bot manifest states it (short event name, optional entity ids). */
export interface SubscriptionEntry {
  event: string;
  walls?: readonly number[] | undefined;
  forms?: readonly number[] | undefined;
  achievements?: readonly number[] | undefined;
}

/** The `events` and `filters` of an outgoing-webhook create or update body (spec: Outgoing webhook management). */
export interface WebhookSubscription {
  events: string[];
  filters: Record<string, number[]>;
}

/**
 * Turns manifest subscriptions into what the webhook endpoint is registered with: platform event
 * names, and entity ids per filterable event. An unfiltered entry for an event wins over filtered
 * ones (the platform sends all activity for an event without a filter); filtered entries for one
 * event add up. Output is sorted, so two plans compare equal when they mean the same.
 *
 * @example
 * toWebhookSubscription([{ event: 'comment.created', walls: [3] }], 'acme')
 * // => { events: ['acme.comment.created'], filters: { 'acme.comment.created': [3] } }
 */
export function toWebhookSubscription(entries: readonly SubscriptionEntry[], prefix = DEFAULT_EVENT_PREFIX): WebhookSubscription {
  const ids = new Map<string, Set<number> | 'all'>();
  for (const entry of entries) {
    if (!isEventName(entry.event)) continue;
    const kind = filterKindOf(entry.event);
    const wanted = kind ? entry[kind] : undefined;
    const current = ids.get(entry.event);
    if (!wanted || current === 'all') {
      ids.set(entry.event, 'all');
      continue;
    }
    const set = current ?? new Set<number>();
    for (const id of wanted) set.add(id);
    ids.set(entry.event, set);
  }
  const events = [...ids.keys()].sort().map((name) => toPlatformEvent(name, prefix));
  const filters: Record<string, number[]> = {};
  for (const [name, value] of [...ids.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== 'all') filters[toPlatformEvent(name, prefix)] = [...value].sort((a, b) => a - b);
  }
  return { events, filters };
}
