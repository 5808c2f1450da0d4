import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { mediaUrl, requestOrigin } from '../../serialize/media';
import { POSTS_KIND, type MediaRecord } from './records';

/**
 * spec: Media — `width`/`height` (integers) for images; read from a PNG's IHDR, a GIF's screen
 * descriptor or a JPEG's frame header. Null only for a file none of these can be read from.
 */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const png = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  if (png) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  const gif = bytes.length >= 10 && bytes.toString('latin1', 0, 4) === 'GIF8';
  if (gif) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  return jpegSize(bytes);
}

/** Start-of-frame markers (SOF0..SOF15) that carry the size; C4, C8 and CC share the range but are other segments. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** A JPEG's size from its first frame header: walks the segments from SOI (`FF D8`). */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    // fill bytes, and markers that stand alone without a length (TEM, RSTn)
    if (marker === 0xff) at += 1;
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) at += 2;
    else if (isStartOfFrame(marker)) return at + 9 <= bytes.length ? { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) } : null;
    else at += 2 + bytes.readUInt16BE(at + 2);
  }
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
