import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import type { MediaRecord } from '../routes/posts/records';

/** The origin the caller reached the sandbox at, so media URLs work from wherever they asked. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The download URL of a media item, served by the sandbox itself (`/_sandbox/media/{id}/{filename}`). */
export function mediaUrl(origin: string, media: Pick<MediaRecord, 'id' | 'filename'>): string {
  return `${origin}/_sandbox/media/${media.id}/${encodeURIComponent(media.filename)}`;
}

/** spec: Media — `{ id, type, mime_type, filename, size, url, width, height, created_at }`. */
export function serializeMedia(ctx: SandboxContext, media: MediaRecord, origin: string): Record<string, unknown> {
  return {
    id: media.id,
    type: media.type,
    mime_type: media.mime_type,
    filename: media.filename,
    size: media.size,
    url: mediaUrl(origin, media),
    width: media.width,
    height: media.height,
    created_at: ctx.iso(media.created_at),
  };
}
