import { mediaForm } from '../api/media';
import { endpoints } from '../api/schemas/endpoints';
import { InvalidInputError } from '../errors';
import type { KvSpace } from '../store/kv';
import type { PostMedia } from './kinds/entry-fields';
import { callOnce, type SendClient } from './send-client';

export interface UploadOnceInput {
  client: SendClient;
  kv: KvSpace;
  entryId: string;
  media: readonly PostMedia[];
  /** How long the remembered ids are kept (past the entry's deadline). */
  ttlMs: number;
  signal?: AbortSignal;
}

/** The kv key holding the media ids of an entry's files, by position. */
export function mediaKey(entryId: string): string {
  return `media:${entryId}`;
}

/**
 * Uploads an entry's files through POST /media (spec: Media: two-step use) and answers their ids.
 * Each id is written to the store as soon as its upload succeeds, so a retry of the entry (after a
 * 503 on the post, or a restart) reuses what was uploaded instead of uploading it again.
 */
export async function uploadOnce(input: UploadOnceInput): Promise<number[]> {
  const key = mediaKey(input.entryId);
  const known = await input.kv.get(key);
  const ids: (number | null)[] = Array.isArray(known) ? known.map((v) => (typeof v === 'number' ? v : null)) : [];
  for (const [index, item] of input.media.entries()) {
    if (typeof ids[index] === 'number') continue;
    const { form, cleanup } = await mediaForm({ data: await sourceOf(item, input.kv), type: item.type, ...(item.filename ? { filename: item.filename } : {}) });
    try {
      const uploaded = (await callOnce(input.client, endpoints['media.upload'], { form, ...(input.signal ? { signal: input.signal } : {}) })) as { id: number };
      ids[index] = uploaded.id;
    } finally {
      await cleanup();
    }
    await input.kv.set(key, ids, { ttlMs: input.ttlMs });
  }
  return ids.map((id) => id as number);
}

async function sourceOf(item: PostMedia, kv: KvSpace): Promise<Buffer | { path: string }> {
  if (item.path !== undefined) return { path: item.path };
  const stashed = await kv.get(item.blobRef ?? '');
  if (typeof stashed !== 'string') throw new InvalidInputError('entry.media.blobRef', `entry.media.blobRef: ${item.blobRef} is no longer in the store`);
  return Buffer.from(stashed, 'base64');
}
