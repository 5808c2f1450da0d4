import { endpoints } from '../api/schemas/endpoints';
import { sendableWallId, sendingBotUser, type OutboxEntry } from './entry';
import type { SendClient } from './send-client';

/**
 * Reconciling a create whose outcome is unknown (DESIGN.md: "A create that timed out is checked
 * against the platform before it is sent again"): the wall (or the post's comments) is read back
 * for an item with the same body, by the same author, created since the first attempt. Found: the
 * entry is done; not found: it is sent again.
 */

/** How far before the first attempt the search starts, for clock skew between us and the platform. */
export const RECONCILE_SKEW_MS = 5 * 60_000;
/** The most items looked at: a wall busier than this since the attempt is searched no further. */
const MAX_SCANNED = 1_000;

export interface FindPostInput {
  wallId: number;
  body: string;
  /** The bot the post was attributed to; without it any author matches (the token's user). */
  botUserId?: number | undefined;
  sinceMs: number;
  signal?: AbortSignal | undefined;
}

interface Authored {
  id: number;
  body: string;
  author?: { id: number } | undefined;
}

/** The id of a post on the wall matching the one we tried to create, or undefined. */
export async function findCreatedPost(client: SendClient, input: FindPostInput): Promise<number | undefined> {
  const items = client.paginate(endpoints['posts.list'], {
    params: { wall_id: input.wallId },
    query: { since: sinceOf(input.sinceMs), per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return findMatch(items as AsyncIterable<Authored>, input.body, input.botUserId);
}

export interface FindCommentInput {
  postId: number;
  body: string;
  sinceMs: number;
  signal?: AbortSignal | undefined;
}

/** The id of a comment under the post matching the one we tried to create, or undefined. */
export async function findCreatedComment(client: SendClient, input: FindCommentInput): Promise<number | undefined> {
  // spec: Pagination — `since` applies to every list; comments are filtered again here in case it is ignored
  const items = client.paginate(endpoints['comments.list'], {
    params: { post_id: input.postId },
    query: { since: sinceOf(input.sinceMs), per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return findMatch(items as AsyncIterable<Authored>, input.body, undefined);
}

export interface FindTitledInput {
  kind: 'announcement' | 'event';
  title: string;
  sinceMs: number;
  signal?: AbortSignal | undefined;
}

/** The id of an announcement or event (drafts included) with the title we tried to create, or undefined. */
export async function findCreatedTitled(client: SendClient, input: FindTitledInput): Promise<number | undefined> {
  const endpoint = input.kind === 'announcement' ? endpoints['announcements.list'] : endpoints['events.list'];
  // spec: Pagination — `status=all`: a create may be a draft or scheduled
  const items = client.paginate(endpoint, {
    query: { since: sinceOf(input.sinceMs), status: 'all', per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
  }) as AsyncIterable<{ id: number; title: string }>;
  let scanned = 0;
  for await (const item of items) {
    if (item.title === input.title) return item.id;
    if (++scanned >= MAX_SCANNED) return undefined;
  }
  return undefined;
}

/** What reading the platform back says about an earlier attempt of `entry`. */
export type ReconcileResult = { kind: 'found'; created?: { kind: 'post' | 'comment'; id: number } } | { kind: 'absent' } | { kind: 'unreadable' };

/**
 * Looks for the effect of an earlier attempt of `entry` made since `sinceMs`. Posts, comments,
 * announcements and events can be read back; chat messages, direct messages, notifications, awards
 * and other writes cannot (`unreadable`: the caller applies `on_uncertain`, or resends an award).
 */
export async function reconcileEntry(client: SendClient, entry: OutboxEntry, sinceMs: number, signal?: AbortSignal): Promise<ReconcileResult> {
  const found = (id: number | undefined, kind?: 'post' | 'comment'): ReconcileResult =>
    id === undefined ? { kind: 'absent' } : { kind: 'found', ...(kind ? { created: { kind, id } } : {}) };
  switch (entry.kind) {
    case 'post':
      return found(
        await findCreatedPost(client, { wallId: sendableWallId(entry), body: entry.body, botUserId: sendingBotUser(entry), sinceMs, signal }),
        'post',
      );
    case 'comment':
      return found(await findCreatedComment(client, { postId: entry.postId, body: entry.body, sinceMs, signal }), 'comment');
    case 'announcement':
    case 'event': {
      const fields = entry.kind === 'announcement' ? entry.announcement : entry.event;
      if (typeof fields.title !== 'string') return { kind: 'unreadable' };
      return found(await findCreatedTitled(client, { kind: entry.kind, title: fields.title, sinceMs, signal }));
    }
    default:
      return { kind: 'unreadable' };
  }
}

async function findMatch(items: AsyncIterable<Authored>, body: string, authorId: number | undefined): Promise<number | undefined> {
  let scanned = 0;
  for await (const item of items) {
    if (item.body === body && (authorId === undefined || item.author?.id === authorId)) return item.id;
    if (++scanned >= MAX_SCANNED) return undefined;
  }
  return undefined;
}

function sinceOf(ms: number): string {
  return new Date(ms - RECONCILE_SKEW_MS).toISOString();
}
