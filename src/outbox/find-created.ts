import { endpoints } from '../api/schemas/endpoints';
import type { CreatedItem, ItemKind } from './created-items';
import { OUTBOX_PACE, type SendClient } from './send-client';

/**
 * Reading the platform back for a create whose outcome is unknown (`reconcileEntry`): the searches the
 * kinds that can be read back use (`src/outbox/kinds/`), and what they answer.
 */

/**
 * How far before the first attempt the search starts, for clock skew between us and the platform
 * (`intrabot doctor` warns past a minute). A platform clock further behind ours than this hides the
 * lost attempt from the search: the entry is sent again, a duplicate at worst, never a loss.
 */
export const RECONCILE_SKEW_MS = 60_000;
/** The most items looked at: a wall busier than this since the attempt is searched no further. */
const MAX_SCANNED = 1_000;

/** Takes a matching item for this attempt: false when another attempt already owns it. */
export type ClaimItem = (item: CreatedItem) => Promise<boolean>;

export interface Search {
  /** When the first attempt started (ms on our clock). */
  sinceMs: number;
  claim: ClaimItem;
  signal?: AbortSignal | undefined;
}

export interface FindPostInput extends Search {
  wallId: number;
  body: string;
  /** The post's author: the bot it was attributed to, else the token's user; without it any author matches. */
  authorId?: number | undefined;
}

interface Listed {
  id: number;
  body?: string;
  title?: string;
  author?: { id?: number } | null | undefined;
  created_at?: string;
}

/** The id of a post on the wall matching the one we tried to create and owned by no other attempt, or undefined. */
export async function findCreatedPost(client: SendClient, input: FindPostInput): Promise<number | undefined> {
  const items = client.paginate(endpoints['posts.list'], {
    params: { wall_id: input.wallId },
    query: { since: sinceOf(input.sinceMs), per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
    pace: OUTBOX_PACE,
  });
  return findMatch(items as AsyncIterable<Listed>, 'post', input, (item) => item.body === input.body && authoredBy(item, input.authorId));
}

export interface FindCommentInput extends Search {
  postId: number;
  body: string;
  /** The token's user (every comment the runtime writes is theirs); without it any author matches. */
  authorId?: number | undefined;
}

/** The id of a comment under the post matching the one we tried to create and owned by no other attempt, or undefined. */
export async function findCreatedComment(client: SendClient, input: FindCommentInput): Promise<number | undefined> {
  const items = client.paginate(endpoints['comments.list'], {
    params: { post_id: input.postId },
    query: { since: sinceOf(input.sinceMs), per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
    pace: OUTBOX_PACE,
  });
  return findMatch(items as AsyncIterable<Listed>, 'comment', input, (item) => item.body === input.body && authoredBy(item, input.authorId));
}

export interface FindTitledInput extends Search {
  kind: 'announcement' | 'event';
  title: string;
}

/** The id of an announcement or event (drafts included) with the title we tried to create and owned by no other attempt, or undefined. */
export async function findCreatedTitled(client: SendClient, input: FindTitledInput): Promise<number | undefined> {
  const endpoint = input.kind === 'announcement' ? endpoints['announcements.list'] : endpoints['events.list'];
  // spec: Pagination — `status=all`: a create may be a draft or scheduled
  const items = client.paginate(endpoint, {
    query: { since: sinceOf(input.sinceMs), status: 'all', per_page: 50 },
    ...(input.signal ? { signal: input.signal } : {}),
    pace: OUTBOX_PACE,
  }) as AsyncIterable<Listed>;
  return findMatch(items, input.kind, input, (item) => item.title === input.title);
}

/** What reading the platform back says about an earlier attempt of `entry`. */
export type ReconcileResult = { kind: 'found'; item: CreatedItem } | { kind: 'absent' } | { kind: 'unreadable' };

export interface ReconcileInput extends Search {
  /** The token's user on the entry's tenant, when the outbox has learned it. */
  tokenUserId?: number | undefined;
}

/** The search a kind runs for `input`. */
export function searchOf(input: ReconcileInput): Search {
  return { sinceMs: input.sinceMs, claim: input.claim, signal: input.signal };
}

/** `found` with the item a search answered, or `absent` when it answered none. */
export function foundOrAbsent(kind: ItemKind, id: number | undefined): ReconcileResult {
  return id === undefined ? { kind: 'absent' } : { kind: 'found', item: { kind, id } };
}

/** An announcement's or event's reconcile: by its title; one without a title as text cannot be read back. */
export async function reconcileTitled(
  client: SendClient,
  kind: FindTitledInput['kind'],
  fields: Record<string, unknown>,
  input: ReconcileInput,
): Promise<ReconcileResult> {
  if (typeof fields.title !== 'string') return { kind: 'unreadable' };
  return foundOrAbsent(kind, await findCreatedTitled(client, { ...searchOf(input), kind, title: fields.title }));
}

/**
 * The first item that matches, was created within the search window, and is this attempt's to claim.
 * `since` is checked again on `created_at`, in case the platform ignores the parameter.
 */
async function findMatch(items: AsyncIterable<Listed>, kind: ItemKind, search: Search, matches: (item: Listed) => boolean): Promise<number | undefined> {
  const earliest = search.sinceMs - RECONCILE_SKEW_MS;
  let scanned = 0;
  for await (const item of items) {
    if (matches(item) && !createdBefore(item, earliest) && (await search.claim({ kind, id: item.id }))) return item.id;
    if (++scanned >= MAX_SCANNED) return undefined;
  }
  return undefined;
}

function authoredBy(item: Listed, authorId: number | undefined): boolean {
  return authorId === undefined || item.author?.id === authorId;
}

function createdBefore(item: Listed, earliestMs: number): boolean {
  const at = item.created_at === undefined ? Number.NaN : Date.parse(item.created_at);
  return Number.isFinite(at) && at < earliestMs;
}

function sinceOf(ms: number): string {
  return new Date(ms - RECONCILE_SKEW_MS).toISOString();
}
