import { createHash } from 'node:crypto';
import type { Feed } from './feeds-config';

/** What the bot keeps of a feed between reads. */
export interface FeedState {
  /** When the feed was first read successfully: before it, a read is the first poll. */
  firstReadAt?: number;
  /** When the feed was last tried, successfully or not. */
  lastTriedAt?: number;
  /** The ids the feed listed at its last successful read: still listed, never posted again. */
  lastIds: string[];
  /** Failed reads in a row, since when, and the last error's message. */
  failures: number;
  failingSince?: number;
  lastError?: string;
  /** The failure was reported on `report_to` (the recovery is reported then too). */
  reported?: boolean;
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** A feed's keys carry its URL's hash: a feed given another URL is a new feed (a first poll, fresh validators). */
export const feedKey = (feed: Feed) => `${feed.name}:${short(feed.url)}`;
export const stateKey = (feed: Feed) => `feed:${feedKey(feed)}`;
export const httpKey = (feed: Feed) => `http:${feedKey(feed)}`;
/** The claim that posts an item once, across replicas and reruns. */
export const itemKey = (feed: Feed, id: string) => `item:${feedKey(feed)}:${short(id)}`;

export const emptyState = (): FeedState => ({ lastIds: [], failures: 0 });
