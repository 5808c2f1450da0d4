import type { CallInput, Caller, ItemOf } from './caller';
import type { AnyEndpoint } from './schemas/endpoint';

/**
 * Incremental sync (spec: Pagination: "For incremental sync, store the newest `created_at`
 * received and pass it next time"): one pass over a list with `since`, returning the items and
 * the cursor to store for the next pass.
 */
export interface SyncOptions<E extends AnyEndpoint> {
  /** The cursor of the previous pass (an ISO 8601 date or datetime); none for a full read. */
  since?: string | undefined;
  params?: CallInput<E>['params'];
  query?: CallInput<E>['query'];
  signal?: AbortSignal;
  /** Told the number of items read so far, after each page (a progress line for long reads). */
  onProgress?: (read: number) => void;
}

export interface SyncResult<T> {
  items: T[];
  /** The newest `created_at` seen, or the given `since` when nothing newer came. */
  cursor: string | undefined;
}

/** The newest `created_at` among `items` (compared as instants, returned as sent), else `fallback`. */
export function newestCreatedAt(items: readonly unknown[], fallback: string | undefined): string | undefined {
  let newest = fallback;
  let newestMs = fallback === undefined ? Number.NEGATIVE_INFINITY : Date.parse(fallback);
  for (const item of items) {
    const createdAt = (item as { created_at?: unknown } | null)?.created_at;
    if (typeof createdAt !== 'string') continue;
    const ms = Date.parse(createdAt);
    if (Number.isNaN(ms)) continue;
    if (ms > newestMs || Number.isNaN(newestMs)) {
      newest = createdAt;
      newestMs = ms;
    }
  }
  return newest;
}

/**
 * Reads every item created after `since` and returns them with the new cursor.
 *
 * @example
 * const { items, cursor } = await incrementalSync(api, endpoints['users.list'], { since: stored });
 * await store.set('users-cursor', cursor);
 */
export async function incrementalSync<E extends AnyEndpoint>(caller: Caller, endpoint: E, options: SyncOptions<E> = {}): Promise<SyncResult<ItemOf<E>>> {
  const query = { ...options.query, ...(options.since === undefined ? {} : { since: options.since }) };
  const input = { params: options.params, query, signal: options.signal } as CallInput<E>;
  const items: ItemOf<E>[] = [];
  for await (const item of caller.paginate(endpoint, input)) {
    items.push(item);
    // once per page of at most 50: a page arrives whole, so its last item is the one to report on
    if (options.onProgress && items.length % 50 === 0) options.onProgress(items.length);
  }
  options.onProgress?.(items.length);
  return { items, cursor: newestCreatedAt(items, options.since) };
}
