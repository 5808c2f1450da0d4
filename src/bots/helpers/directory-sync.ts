import { ApiNotFoundError } from '../../api/errors';
import type { Caller } from '../../api/caller';
import { endpoints } from '../../api/schemas/endpoints';
import { incrementalSync } from '../../api/sync';
import type { BotLogger, BotStore } from '../context';
import {
  ApiUserSchema,
  collectGroups,
  decodeDirectory,
  encodeDirectory,
  FULL_RESYNC_EVERY_MS,
  mergeUsers,
  planSync,
  toDirectoryUser,
  type ApiUser,
  type Directory,
  type DirectoryUser,
} from './directory-copy';

/** What a sync works with: usually straight from the handler's context (`ctx.api`, `ctx.store`). */
export interface DirectorySyncDeps {
  api: Caller;
  store: BotStore;
  /** The injected clock's now (ms): decides when the weekly full re-sync is due. */
  now: number;
  signal?: AbortSignal | undefined;
  log?: BotLogger | undefined;
  /** How far the read has got, page by page (`ctx.progress`: `intrabot run`'s progress line). */
  progress?: ((text: string) => void) | undefined;
}

export interface DirectorySyncOptions {
  /** The store key of the copy (default `directory`); two copies in one bot need two keys. */
  key?: string;
  /** How often a full re-sync replaces the copy (default a week): the only way departures show up in bulk. */
  fullResyncEveryMs?: number;
  /** Force a full sync now. */
  full?: boolean;
}

export interface DirectorySyncResult {
  directory: Directory;
  mode: 'full' | 'incremental';
  /** Users received from the platform in this sync. */
  fetched: number;
}

const DEFAULT_KEY = 'directory';
/** spec: Pagination: per_page at most 50; the maximum halves the requests of a full sync. */
const PER_PAGE = 50;

/**
 * Brings the bot's local copy of the directory up to date and returns it. The first run reads every
 * page; later runs ask only for users created after the newest `created_at` seen (`since`), so a
 * day without new users costs one request; a full re-sync each week (configurable) drops those who
 * left and picks up profile changes. Between full syncs, check a user with `confirmUsers` before
 * acting on them: `since` brings new users only, never departures.
 *
 * @example
 * const { directory } = await syncDirectory({ api: ctx.api, store: ctx.store, now: run.slot, log: ctx.log });
 * const celebrants = birthdaysOn(directory.users, ctx.dateOf(run.slot));
 */
export async function syncDirectory(deps: DirectorySyncDeps, options: DirectorySyncOptions = {}): Promise<DirectorySyncResult> {
  const key = options.key ?? DEFAULT_KEY;
  const stored = decodeDirectory(await deps.store.get(key));
  const plan = options.full ? ({ mode: 'full' } as const) : planSync(stored, deps.now, options.fullResyncEveryMs ?? FULL_RESYNC_EVERY_MS);
  const since = plan.mode === 'incremental' ? plan.since : undefined;
  const { items, cursor } = await incrementalSync(deps.api, endpoints['users.list'], {
    since,
    query: { per_page: PER_PAGE },
    signal: deps.signal,
    ...(deps.progress ? { onProgress: (read: number) => deps.progress?.(`directory (${plan.mode}): ${read} users read`) } : {}),
  });
  const received = items.map((item) => ApiUserSchema.parse(item));
  const base = plan.mode === 'full' || !stored ? emptyDirectory() : stored;
  const directory: Directory = {
    cursor: cursor ?? base.cursor,
    fullSyncAt: plan.mode === 'full' ? deps.now : base.fullSyncAt,
    users: mergeUsers(base.users, received.map(toDirectoryUser)),
    groups: collectGroups(base.groups, received),
  };
  // an incremental pass that brought nothing new (or only the user at the cursor again, when the
  // platform compares `since` more finely than it prints `created_at`) changes nothing: no write
  if (plan.mode === 'full' || directory.cursor !== base.cursor || changesUsers(base.users, received)) await deps.store.set(key, encodeDirectory(directory));
  deps.log?.info('directory synced', { mode: plan.mode, since, fetched: received.length, users: directory.users.length });
  return { directory, mode: plan.mode, fetched: received.length };
}

export interface ConfirmedUsers {
  /** The users as the platform shows them now, in the order asked. */
  present: DirectoryUser[];
  /** Ids the platform no longer lists (404: left, deactivated or deleted). */
  gone: number[];
}

/**
 * Checks users against the platform (`GET /users/{id}`, one request each) and updates the copy:
 * fresh data replaces the stored entry, and a 404 removes it. Use it on the few users a run is
 * about to act on (today's celebrants), so a colleague who left is never greeted.
 *
 * @example
 * const { present } = await confirmUsers({ api: ctx.api, store: ctx.store, now }, candidates.map((u) => u.id));
 */
export async function confirmUsers(deps: DirectorySyncDeps, ids: readonly number[], options: Pick<DirectorySyncOptions, 'key'> = {}): Promise<ConfirmedUsers> {
  const present: DirectoryUser[] = [];
  const fresh: ApiUser[] = [];
  const gone: number[] = [];
  for (const id of ids) {
    try {
      const user = ApiUserSchema.parse(await deps.api.call(endpoints['users.get'], { params: { id }, signal: deps.signal }));
      fresh.push(user);
      present.push(toDirectoryUser(user));
    } catch (error) {
      if (!(error instanceof ApiNotFoundError)) throw error;
      gone.push(id);
    }
  }
  if (ids.length > 0) await updateCopy(deps.store, options.key ?? DEFAULT_KEY, present, fresh, gone);
  if (gone.length > 0) deps.log?.info('users no longer in the directory', { gone });
  return { present, gone };
}

async function updateCopy(store: BotStore, key: string, present: DirectoryUser[], fresh: ApiUser[], gone: number[]): Promise<void> {
  const stored = decodeDirectory(await store.get(key));
  if (!stored) return;
  const before = new Map(stored.users.map((u) => [u.id, JSON.stringify(u)]));
  const changed = gone.some((id) => before.has(id)) || present.some((u) => before.get(u.id) !== JSON.stringify(u));
  if (!changed) return;
  const users = mergeUsers(stored.users, present, gone);
  await store.set(key, encodeDirectory({ ...stored, users, groups: collectGroups(stored.groups, fresh) }));
}

function changesUsers(known: readonly DirectoryUser[], received: readonly ApiUser[]): boolean {
  if (received.length === 0) return false;
  const byId = new Map(known.map((u) => [u.id, JSON.stringify(u)]));
  return received.some((user) => byId.get(user.id) !== JSON.stringify(toDirectoryUser(user)));
}

function emptyDirectory(): Directory {
  return { cursor: null, fullSyncAt: 0, users: [], groups: {} };
}
