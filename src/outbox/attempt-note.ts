import type { KvSpace } from '../store/kv';

/**
 * What the store remembers about an entry's attempts, written before each request goes out: when
 * the first attempt started (the reconcile search starts there) and whether the last one may have
 * reached the platform. A process killed mid-request leaves `maybeSent: true` behind, so whoever
 * takes the entry next reconciles (or, for writes that cannot be read back, applies `on_uncertain`)
 * instead of blindly sending again.
 */
export interface AttemptNote {
  firstAt: number;
  maybeSent: boolean;
}

export function attemptKey(entryId: string, part?: number): string {
  return part === undefined ? `attempt:${entryId}` : `attempt:${entryId}:${part}`;
}

export async function readNote(kv: KvSpace, key: string): Promise<AttemptNote | undefined> {
  const value = await kv.get(key);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { firstAt, maybeSent } = value as Record<string, unknown>;
  return typeof firstAt === 'number' && typeof maybeSent === 'boolean' ? { firstAt, maybeSent } : undefined;
}

export async function writeNote(kv: KvSpace, key: string, note: AttemptNote, ttlMs: number): Promise<void> {
  await kv.set(key, { firstAt: note.firstAt, maybeSent: note.maybeSent }, { ttlMs });
}

/** Forgets everything noted about a finished entry (attempts, media ids, digest, stashed files). */
export async function forgetEntry(kv: KvSpace, entryId: string, blobRefs: readonly string[]): Promise<void> {
  for (const item of await kv.list(`attempt:${entryId}`)) await kv.delete(item.key);
  await kv.delete(`media:${entryId}`);
  await kv.delete(`digest:${entryId}`);
  for (const ref of blobRefs) await kv.delete(ref);
}
