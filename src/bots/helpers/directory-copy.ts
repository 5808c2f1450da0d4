import { z } from 'zod';

/**
 * The local copy of the directory a bot keeps in its store, and the pure steps of keeping it:
 * decoding, merging, planning the next sync. The IO lives in `directory-sync.ts`.
 *
 * Stored compactly, as one record: a user is a tuple, groups are named once in a dictionary.
 * Measured for 10,000 users: 0.7 MB of JSON (full user objects would be 6.1 MB); a set takes
 * 4-12 ms in SQLite and 16-36 ms in Redis, a get 3-27 ms (Redis: 4 ms warm, one outlier of 270 ms),
 * decoding 6-170 ms (cold). One key: chunking would pay off only far beyond that, and would make a
 * removal touch several keys.
 * Only a full sync or an actual change writes it: a day without new users writes nothing.
 */

/** A user as the copy holds it: what greetings, filters and awards need, nothing more. */
export const DirectoryUserSchema = z.object({
  id: z.int().positive(),
  name: z.string(),
  first_name: z.string(),
  date_of_birth: z.string().nullable(),
  hired_at: z.string().nullable(),
  is_away: z.boolean(),
  group_ids: z.array(z.int().positive()),
});
export type DirectoryUser = z.infer<typeof DirectoryUserSchema>;

/** A group as named in users' `groups[]` (spec: Group). */
export const DirectoryGroupSchema = z.object({ name: z.string(), type: z.string() });
export type DirectoryGroup = z.infer<typeof DirectoryGroupSchema>;

export const DirectorySchema = z.object({
  /** The newest `created_at` received: the next incremental sync's `since` (spec: Pagination). */
  cursor: z.string().nullable(),
  /** When the last full sync finished (ms since the epoch, on the injected clock). */
  fullSyncAt: z.number(),
  users: z.array(DirectoryUserSchema),
  groups: z.record(z.string(), DirectoryGroupSchema),
});
export type Directory = z.infer<typeof DirectorySchema>;

/** `[id, name, first_name, date_of_birth, hired_at, is_away (0|1), group ids]` */
const EntrySchema = z.tuple([
  z.int().positive(),
  z.string(),
  z.string(),
  z.string().nullable(),
  z.string().nullable(),
  z.union([z.literal(0), z.literal(1)]),
  z.array(z.int().positive()),
]);

/** The stored form; `v` changes when the shape does, and an unknown version means a full sync. */
export const StoredDirectorySchema = z.object({
  v: z.literal(1),
  cursor: z.string().nullable(),
  full_sync_at: z.number(),
  groups: z.record(z.string(), z.tuple([z.string(), z.string()])),
  users: z.array(EntrySchema),
});
export type StoredDirectory = z.infer<typeof StoredDirectorySchema>;

/** A user from the API (or its embedded groups), loosely: unknown fields are ignored. */
export const ApiUserSchema = z.looseObject({
  id: z.int().positive(),
  name: z.string(),
  first_name: z.string().optional(),
  date_of_birth: z.string().nullable().optional(),
  hired_at: z.string().nullable().optional(),
  is_away: z.boolean().optional(),
  groups: z.array(z.looseObject({ id: z.int().positive(), name: z.string(), type: z.string() })).optional(),
});
export type ApiUser = z.infer<typeof ApiUserSchema>;

export function encodeDirectory(directory: Directory): StoredDirectory {
  return {
    v: 1,
    cursor: directory.cursor,
    full_sync_at: directory.fullSyncAt,
    groups: Object.fromEntries(Object.entries(directory.groups).map(([id, g]) => [id, [g.name, g.type]])),
    users: directory.users.map((u) => [u.id, u.name, u.first_name, u.date_of_birth, u.hired_at, u.is_away ? 1 : 0, u.group_ids]),
  };
}

/** The copy, or undefined when nothing (or something from another version) is stored. */
export function decodeDirectory(raw: unknown): Directory | undefined {
  const parsed = StoredDirectorySchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const stored = parsed.data;
  return {
    cursor: stored.cursor,
    fullSyncAt: stored.full_sync_at,
    groups: Object.fromEntries(Object.entries(stored.groups).map(([id, [name, type]]) => [id, { name, type }])),
    users: stored.users.map(([id, name, first_name, date_of_birth, hired_at, away, group_ids]) => ({
      id,
      name,
      first_name,
      date_of_birth,
      hired_at,
      is_away: away === 1,
      group_ids,
    })),
  };
}

/** What the copy keeps of an API user. */
export function toDirectoryUser(user: ApiUser): DirectoryUser {
  return {
    id: user.id,
    name: user.name,
    first_name: user.first_name ?? user.name.split(' ')[0] ?? user.name,
    date_of_birth: user.date_of_birth ?? null,
    hired_at: user.hired_at ?? null,
    is_away: user.is_away ?? false,
    group_ids: (user.groups ?? []).map((g) => g.id),
  };
}

/** The groups named in `users`, added to `groups` (a new name for an id wins). */
export function collectGroups(groups: Directory['groups'], users: readonly ApiUser[]): Directory['groups'] {
  const out = { ...groups };
  for (const user of users) for (const g of user.groups ?? []) out[String(g.id)] = { name: g.name, type: g.type };
  return out;
}

/** `existing` with `incoming` users added or replaced (by id) and `removed` ids dropped, sorted by id. */
export function mergeUsers(existing: readonly DirectoryUser[], incoming: readonly DirectoryUser[], removed: readonly number[] = []): DirectoryUser[] {
  const byId = new Map(existing.map((u) => [u.id, u]));
  for (const user of incoming) byId.set(user.id, user);
  for (const id of removed) byId.delete(id);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export type SyncPlan = { mode: 'full' } | { mode: 'incremental'; since: string };

/** A week: the default interval between full re-syncs, which bring departures and profile changes. */
export const FULL_RESYNC_EVERY_MS = 7 * 86_400_000;

/**
 * Full when there is no copy, no cursor, or the last full sync is `fullEveryMs` old; otherwise
 * incremental from the cursor (spec: Pagination, `since`: only records created after it).
 */
export function planSync(directory: Directory | undefined, nowMs: number, fullEveryMs = FULL_RESYNC_EVERY_MS): SyncPlan {
  if (!directory || directory.cursor === null) return { mode: 'full' };
  if (nowMs - directory.fullSyncAt >= fullEveryMs || nowMs < directory.fullSyncAt) return { mode: 'full' };
  return { mode: 'incremental', since: directory.cursor };
}

/** Group ids for a filter given as ids or names (names matched case-insensitively); unknown names are returned apart. */
export function resolveGroups(wanted: readonly (number | string)[], groups: Directory['groups']): { ids: number[]; unknown: string[] } {
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const entry of wanted) {
    if (typeof entry === 'number' || /^\d+$/.test(entry)) {
      ids.push(Number(entry));
      continue;
    }
    const found = Object.entries(groups).find(([, g]) => g.name.toLowerCase() === entry.toLowerCase());
    if (found) ids.push(Number(found[0]));
    else unknown.push(entry);
  }
  return { ids, unknown };
}
