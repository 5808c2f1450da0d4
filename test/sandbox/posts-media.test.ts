import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiValidationError } from '../../src/api/errors';
import type { Media } from '../../src/api/schemas/media';
import type { Post } from '../../src/api/schemas/post';
import { galleryKind } from '../../src/sandbox/routes/posts/gallery';
import { failure, multipart, pngBytes, useHttpSandbox } from './http-harness';

/** The client's Post does not name `media` and `gallery` (the spec's Post does not show them). */
type PostWithMedia = Post & { media: Media[]; gallery: { type: string; media_ids: number[] } | null };

describe('sandbox media', () => {
  const h = useHttpSandbox();
  type Kind = 'image' | 'video' | 'document';

  /** A multipart upload over raw HTTP, for forms the client refuses to send. */
  async function rawUpload(type: string, file: { name: string; type: string; bytes: Uint8Array } | undefined) {
    const form = await multipart({ type }, file ? { field: 'media', ...file } : undefined);
    return h.raw('POST', '/media', { body: form.payload, headers: form.headers });
  }

  function fileOf(type: Kind, n: number): { filename: string; contentType: string; data: Uint8Array } {
    if (type === 'image') return { filename: `p${n}.png`, contentType: 'image/png', data: pngBytes(10, 20) };
    if (type === 'video') return { filename: `v${n}.mp4`, contentType: 'video/mp4', data: new Uint8Array([0, 0, 0, 1]) };
    return { filename: `d${n}.pdf`, contentType: 'application/pdf', data: new Uint8Array([37, 80, 68, 70]) };
  }

  async function uploaded(type: Kind, n = 0): Promise<Media> {
    return h.api.media.uploadFile({ type, ...fileOf(type, n) });
  }

  it('uploads an image with its PNG dimensions and serves the bytes at its url (spec: Media)', async () => {
    const bytes = pngBytes(640, 480);
    const media = await h.api.media.uploadFile({ type: 'image', data: bytes, filename: 'photo.png', contentType: 'image/png' });
    expect(media).toMatchObject({ type: 'image', mime_type: 'image/png', filename: 'photo.png', size: bytes.length, width: 640, height: 480 });
    const download = await request(media.url);
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(Buffer.from(await download.body.arrayBuffer()), Buffer.from(bytes))).toBe(0);
    expect(await h.api.media.get(media.id)).toMatchObject({ id: media.id, url: media.url });
    // the status itself, which the client does not surface
    expect((await rawUpload('image', { name: 'again.png', type: 'image/png', bytes })).status).toBe(201);
  });

  it('reads the dimensions of a JPEG image: the spec types width and height of images as integers (spec: Media)', async () => {
    const media = await h.api.media.uploadFile({ type: 'image', data: jpegBytes(1024, 768), filename: 'photo.jpg', contentType: 'image/jpeg' });
    expect(media).toMatchObject({ type: 'image', mime_type: 'image/jpeg', width: 1024, height: 768 });
  });

  it('leaves width and height null for documents', async () => {
    expect(await uploaded('document')).toMatchObject({ width: null, height: null });
  });

  it('answers 422 naming type for audio or an unknown type (spec: Media)', async () => {
    // the client only sends image, video or document, so these forms go over raw HTTP
    for (const type of ['audio', 'gif', '']) {
      const res = await rawUpload(type, { name: 'a.bin', type: 'application/octet-stream', bytes: new Uint8Array([1]) });
      expect(res.status).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/^type/);
    }
  });

  it('refuses an audio file whatever type it claims (spec: Posts — audio gives 422)', async () => {
    const error = await failure(h.api.media.uploadFile({ type: 'document', data: new Uint8Array([1, 2]), filename: 'song.mp3', contentType: 'audio/mpeg' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringMatching(/^media/) });
  });

  it('answers 422 naming media when the file is missing', async () => {
    // the client refuses a form without the file, so raw HTTP
    const res = await rawUpload('image', undefined);
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/^media/);
  });

  it('needs write:media to upload (spec: Media)', async () => {
    const api = await h.clientWith(['write:posts']);
    const error = await failure(api.media.uploadFile({ type: 'image', data: pngBytes(1, 1), filename: 'p.png' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:media' });
  });

  it('answers 403 naming write:media when a post attaches media without it (spec: Posts)', async () => {
    const media = await uploaded('image');
    const api = await h.clientWith(['write:posts', 'read:posts']);
    const error = await failure(api.posts.create(h.refs.company_wall_id, { body: 'pic', media_ids: [media.id] }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:media' });
    await expect(api.posts.create(h.refs.company_wall_id, { body: 'no pic' })).resolves.toMatchObject({ body: 'no pic' });
  });

  it('attaches media to a post, returning them with the gallery (spec: Posts, create body)', async () => {
    const a = await uploaded('image', 1);
    const b = await uploaded('image', 2);
    const post = (await h.api.posts.create(h.refs.company_wall_id, { body: 'album', media_ids: [a.id, b.id] })) as PostWithMedia;
    expect(post.media.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(post.gallery).toEqual({ type: 'image', media_ids: [a.id, b.id] });
    expect(((await h.api.posts.get(h.refs.company_wall_id, post.id)) as PostWithMedia).media[0]?.url).toBe(a.url);
  });

  it('stores single-type batches as image, video or file galleries and mixes or several videos as mixed (spec: Posts, create body)', async () => {
    const cases: [Kind[], string][] = [
      [['image'], 'image'],
      [['video'], 'video'],
      [['document', 'document'], 'file'],
      [['video', 'video'], 'mixed'],
      [['image', 'document'], 'mixed'],
      [['image', 'video'], 'mixed'],
    ];
    let n = 0;
    for (const [types, kind] of cases) {
      const ids = [];
      for (const type of types) ids.push((await uploaded(type, n++)).id);
      const post = (await h.api.posts.create(h.refs.company_wall_id, { body: kind, media_ids: ids })) as PostWithMedia;
      expect(post.gallery?.type, kind).toBe(kind);
    }
  });

  it('answers 422 for more than 10 media or an unknown media id (spec: Limits, media per post)', async () => {
    const media = await uploaded('image');
    // the client refuses more than 10 ids before sending, so raw HTTP
    const eleven = await h.raw('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: { body: 'many', media_ids: Array(11).fill(media.id) } });
    expect(eleven.status).toBe(422);
    expect(eleven.json<{ message: string }>().message).toMatch(/^media_ids/);
    const error = await failure(h.api.posts.create(h.refs.company_wall_id, { body: 'ghost', media_ids: [media.id, 999] }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'media_ids.1' });
    expect(h.events.filter((e) => e.event === 'post.created')).toHaveLength(0);
  });
});

describe('gallery kind', () => {
  it('follows the spec table for every mix', () => {
    expect(galleryKind([])).toBeNull();
    expect(galleryKind([{ type: 'image' }, { type: 'image' }])).toBe('image');
    expect(galleryKind([{ type: 'video' }])).toBe('video');
    expect(galleryKind([{ type: 'document' }])).toBe('file');
    expect(galleryKind([{ type: 'video' }, { type: 'video' }])).toBe('mixed');
    expect(galleryKind([{ type: 'image' }, { type: 'video' }])).toBe('mixed');
  });
});

/** A minimal JPEG: SOI, a JFIF APP0 segment, a baseline frame header (SOF0) of the given size, EOI. */
function jpegBytes(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}
