import type { FastifyInstance } from 'fastify';
import { MediaUploadSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { readForm } from '../../http/forms';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { requestOrigin, serializeMedia } from '../../serialize/media';
import { storeUpload } from './media-store';
import { POSTS_KIND, type MediaRecord } from './records';

/** spec: Media (write:media) — upload with multipart `media` + `type`, then read one back. */
export function registerMediaRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route(
    'POST',
    '/media',
    'write:media',
    async (request) => {
      const form = await readForm(request);
      const input = validate(MediaUploadSchema, { media: form.get('media') ?? undefined, type: form.get('type') ?? undefined });
      const media = await storeUpload(ctx, request, input.media as Blob, input.type);
      return { data: serializeMedia(ctx, media, requestOrigin(request)) };
    },
    { status: 201 },
  );
  router.route('GET', '/media/{id}', 'write:media', (request) => {
    const media = ctx.db.get<MediaRecord>(POSTS_KIND.media, idParam((request.params as { id?: string }).id));
    if (!media) throw notFound();
    return { data: serializeMedia(ctx, media, requestOrigin(request)) };
  });
}

/** The download URL of every media item (the `url` of Media), answered by the sandbox itself. */
export function registerMediaDownload(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/media/:id/:filename', async (request, reply) => {
    const params = request.params as { id?: string; filename?: string };
    const media = ctx.db.get<MediaRecord>(POSTS_KIND.media, idParam(params.id));
    if (!media || media.filename !== params.filename) throw notFound();
    return reply.header('content-type', media.mime_type).send(Buffer.from(media.data_base64, 'base64'));
  });
}
