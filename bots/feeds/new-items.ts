import type { FeedItem } from 'intrabot/helpers';
import type { Feed } from './feeds-config';
import type { FeedState } from './feed-state';

/** What a read brings: the items to post (oldest first, so the newest ends on top) and those only to mark seen. */
export interface NewItems {
  post: FeedItem[];
  seen: FeedItem[];
}

const publishedMs = (item: FeedItem) => (item.published ? Date.parse(item.published) : Number.NaN);

/** Newest first by date; items without a date keep the feed's order (feeds list newest first), after the dated ones. */
function newestFirst(items: readonly FeedItem[]): FeedItem[] {
  return items
    .map((item, order) => ({ item, order, ms: publishedMs(item) }))
    .sort((a, b) => {
      const [aDated, bDated] = [!Number.isNaN(a.ms), !Number.isNaN(b.ms)];
      if (aDated && bDated && a.ms !== b.ms) return b.ms - a.ms;
      if (aDated !== bDated) return aDated ? -1 : 1;
      return a.order - b.order;
    })
    .map((x) => x.item);
}

/**
 * Which of a read's items are new: not listed at the last read, not older than what is remembered.
 * On the first read only the newest `first_poll` are posted; on later ones at most `max_per_poll`
 * (the newest); the rest are marked seen, never posted later. Whether an item was posted before is
 * the claim's to say (`claimOnce`): this only chooses.
 */
export function newItems(items: readonly FeedItem[], state: FeedState, feed: Feed, options: { now: number; rememberMs: number }): NewItems {
  const listed = new Set(state.lastIds);
  const unique = [...new Map(items.map((item) => [item.id, item])).values()];
  const candidates = newestFirst(unique.filter((item) => !listed.has(item.id) && !(publishedMs(item) < options.now - options.rememberMs)));
  const limit = state.firstReadAt === undefined ? feed.first_poll : feed.max_per_poll;
  return { post: candidates.slice(0, limit).reverse(), seen: candidates.slice(limit) };
}
