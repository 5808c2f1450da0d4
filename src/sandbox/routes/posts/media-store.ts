import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { mediaUrl, requestOrigin } from '../../serialize/media';
import { POSTS_KIND, type MediaRecord } from './records';

/** spec: Media — `width`/`height` for images; read from a PNG's IHDR or a GIF's screen descriptor, else null. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const png = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  if (png) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  const gif = bytes.length >= 10 && bytes.toString('latin1', 0, 4) === 'GIF8';
  if (gif) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  return null;
}

/** Audio is refused everywhere media goes (spec: Posts — "Audio and other types give 422"). */
export function isAudio(mime: string): boolean {
  return mime.toLowerCase().startsWith('audio/');
}

/**
 * Stores an uploaded file as a media record. The declared `type` must match the file: an image must
 * be `image/*`, a video `video/*`; a document may be anything but audio, images and videos.
 */
export async function storeUpload(ctx: SandboxContext, request: FastifyRequest, file: Blob, type: MediaRecord['type']): Promise<MediaRecord & { url: string }> {
  const mime = file.type || 'application/octet-stream';
  if (isAudio(mime)) throw validationError('media', 'audio files are not accepted');
  const family = mime.split('/')[0];
  if (type === 'image' && family !== 'image') throw validationError('type', `an image must have an image/* MIME type, not ${mime}`);
  if (type === 'video' && family !== 'video') throw validationError('type', `a video must have a video/* MIME type, not ${mime}`);
  if (type === 'document' && (family === 'image' || family === 'video')) throw validationError('type', `upload ${mime} as ${family}, not document`);
  const bytes = Buffer.from(await file.arrayBuffer());
  const size = type === 'image' ? imageSize(bytes) : null;
  const filename = (file as File).name || `upload-${ctx.now()}`;
  const record = ctx.db.insert(POSTS_KIND.media, {
    type,
    mime_type: mime,
    filename,
    size: bytes.length,
    width: size?.width ?? null,
    height: size?.height ?? null,
    data_base64: bytes.toString('base64'),
    created_at: ctx.now(),
  });
  return { ...record, url: mediaUrl(requestOrigin(request), record) };
}
