import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';
import type { Caller } from './caller';
import type { Media, MediaUpload } from './schemas/media';
import type { Post } from './schemas/post';
import { endpoints } from './schemas/endpoints';

/**
 * Uploading media (spec: Media: POST /media, multipart `media` + `type`, scope write:media) and
 * the two-step "upload, then pass the ids in `media_ids`" flow as one call.
 *
 * A file path is opened as a Blob backed by the file (`openAsBlob`), so a large video is streamed
 * from disk, and a retry can read it again. A stream is spooled to a temporary file first, for the
 * same reasons (uploads run to about 100 MB; spec: Limits), and the file is removed afterwards.
 */
export type MediaSource = Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array> | { path: string };

export interface UploadMediaInput {
  data: MediaSource;
  /** `image`, `video` or `document` (spec: Media). */
  type: MediaUpload['type'];
  /** The name the platform stores; defaults to the file's name for a path, required otherwise. */
  filename?: string;
  /** Defaults from the file name's extension. */
  contentType?: string;
  signal?: AbortSignal;
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

function isPath(data: MediaSource): data is { path: string } {
  return typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string';
}

function filenameOf(input: UploadMediaInput): string {
  const name = input.filename ?? (isPath(input.data) ? basename(input.data.path) : undefined);
  if (!name) throw new InvalidInputError('filename', 'filename: required when the media is not a file path');
  return name;
}

/** A Blob of the media, and what to clean up once it has been sent. */
interface MediaBlob {
  blob: Blob;
  cleanup(): Promise<void>;
}

async function spool(stream: Readable | AsyncIterable<Uint8Array>, type: string): Promise<MediaBlob> {
  const dir = await mkdtemp(join(tmpdir(), 'intrabot-upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const path = join(dir, 'media');
    await pipeline(stream instanceof Readable ? stream : Readable.from(stream), createWriteStream(path));
    return { blob: await openAsBlob(path, { type }), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function blobOf(data: MediaSource, type: string): Promise<MediaBlob> {
  const nothing = async (): Promise<void> => undefined;
  if (isPath(data)) return { blob: await openAsBlob(data.path, { type }), cleanup: nothing };
  if (data instanceof Uint8Array) return { blob: new Blob([blobBytes(data)], { type }), cleanup: nothing };
  return spool(data, type);
}

/**
 * The bytes of a view as a Blob takes them: a Blob part is a view of an ArrayBuffer (WebIDL's
 * BufferSource), not of a SharedArrayBuffer, whose bytes are copied out first. Current @types/node
 * types a Buffer's memory as either, and refuses it as a Blob part as it is.
 */
function blobBytes(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

/**
 * The multipart form of POST /media: `media` (the file, with its name) and `type`. Call `cleanup`
 * once the form has been sent (a spooled stream's temporary file).
 */
export async function mediaForm(input: UploadMediaInput): Promise<{ form: FormData; cleanup(): Promise<void> }> {
  const filename = filenameOf(input);
  const contentType = input.contentType ?? CONTENT_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';
  const { blob, cleanup } = await blobOf(input.data, contentType);
  const form = new FormData();
  form.append('media', blob, filename);
  form.append('type', input.type);
  return { form, cleanup };
}

/**
 * Uploads one file and returns the platform's Media (its `id` goes into `media_ids`).
 *
 * @example
 * const media = await uploadMedia(api, { data: { path: './chart.png' }, type: 'image' });
 */
export async function uploadMedia(caller: Caller, input: UploadMediaInput): Promise<Media> {
  const { form, cleanup } = await mediaForm(input);
  try {
    return await caller.call(endpoints['media.upload'], { form, signal: input.signal });
  } finally {
    await cleanup();
  }
}

export interface PostWithMediaInput {
  wallId: number | string;
  body: string;
  bot_user_id?: number;
  /** Up to 10 files (spec: Posts: media_ids, up to 10 items); images, videos and documents may mix. */
  media: Omit<UploadMediaInput, 'signal'>[];
  signal?: AbortSignal;
}

/**
 * Uploads every file, then creates the post with their ids (spec: Media: two-step use). The post
 * is checked first, so a post that would be refused uploads nothing.
 *
 * @example
 * await createPostWithMedia(api, { wallId: 3, body: 'Release notes', media: [{ data: { path: 'notes.pdf' }, type: 'document' }] });
 */
export async function createPostWithMedia(caller: Caller, input: PostWithMediaInput): Promise<Post> {
  const create = endpoints['posts.create'];
  const draft = { body: input.body, bot_user_id: input.bot_user_id, media_ids: input.media.map((_, i) => i + 1) };
  if (create.body) parseOrThrow(create.body, draft, 'body');
  const media_ids: number[] = [];
  for (const file of input.media) {
    const uploaded = await uploadMedia(caller, { ...file, signal: input.signal });
    media_ids.push(uploaded.id);
  }
  const body = { body: input.body, bot_user_id: input.bot_user_id, media_ids };
  return caller.call(create, { params: { wall_id: input.wallId }, body, signal: input.signal });
}
