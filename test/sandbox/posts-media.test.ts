import { afterEach, describe, expect, it } from 'vitest';
import { galleryKind } from '../../src/sandbox/routes/posts/gallery';
import { harness, multipart, pngBytes, type Harness } from './directory-harness';

type Media = { id: number; type: string; mime_type: string; filename: string; size: number; url: string; width: number | null; height: number | null };

describe('sandbox media', () => {
  let h: Harness;
  afterEach(async () => h.close());

  async function upload(type: string, file: { name: string; type: string; bytes: Uint8Array } | undefined, token = 'svc_sandbox_token') {
    const body = await multipart({ type }, file ? { field: 'media', ...file } : undefined);
    return h.app.inject({ method: 'POST', url: '/api/open/v1/media', headers: { authorization: `Bearer ${token}`, ...body.headers }, payload: body.payload });
  }

  async function uploaded(type: 'image' | 'video' | 'document', n = 0): Promise<Media> {
    const file = type === 'image' ? { name: `p${n}.png`, type: 'image/png', bytes: pngBytes(10, 20) } : type === 'video' ? { name: `v${n}.mp4`, type: 'video/mp4', bytes: new Uint8Array([0, 0, 0, 1]) } : { name: `d${n}.pdf`, type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) };
    const res = await upload(type, file);
    expect(res.statusCode).toBe(201);
    return (res.json() as { data: Media }).data;
  }

  it('uploads an image with its PNG dimensions and serves the bytes at its url (spec: Media)', async () => {
    h = harness();
    const bytes = pngBytes(640, 480);
    const res = await upload('image', { name: 'photo.png', type: 'image/png', bytes });
    expect(res.statusCode).toBe(201);
    const media = (res.json() as { data: Media }).data;
    expect(media).toMatchObject({ type: 'image', mime_type: 'image/png', filename: 'photo.png', size: bytes.length, width: 640, height: 480 });
    const download = await h.app.inject({ method: 'GET', url: new URL(media.url).pathname });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, Buffer.from(bytes))).toBe(0);
    expect((await h.api('GET', `/media/${media.id}`)).json()).toMatchObject({ data: { id: media.id, url: media.url } });
  });

  it('leaves width and height null for documents', async () => {
    h = harness();
    expect(await uploaded('document')).toMatchObject({ width: null, height: null });
  });

  it('answers 422 naming type for audio or an unknown type (spec: Media)', async () => {
    h = harness();
    for (const type of ['audio', 'gif', '']) {
      const res = await upload(type, { name: 'a.bin', type: 'application/octet-stream', bytes: new Uint8Array([1]) });
      expect(res.statusCode).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/^type/);
    }
  });

  it('refuses an audio file whatever type it claims (spec: Posts — audio gives 422)', async () => {
    h = harness();
    const res = await upload('document', { name: 'song.mp3', type: 'audio/mpeg', bytes: new Uint8Array([1, 2]) });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^media/);
  });

  it('answers 422 naming media when the file is missing', async () => {
    h = harness();
    const res = await upload('image', undefined);
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^media/);
  });

  it('needs write:media to upload (spec: Media)', async () => {
    h = harness();
    const token = await h.tokenWith(['write:posts']);
    const res = await upload('image', { name: 'p.png', type: 'image/png', bytes: pngBytes(1, 1) }, token);
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toContain('write:media');
  });

  it('answers 403 naming write:media when a post attaches media without it (spec: Posts)', async () => {
    h = harness();
    const media = await uploaded('image');
    const token = await h.tokenWith(['write:posts', 'read:posts']);
    const res = await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'pic', media_ids: [media.id] }, token);
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toContain('write:media');
    expect((await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'no pic' }, token)).statusCode).toBe(201);
  });

  it('attaches media to a post, returning them with the gallery (spec: Posts, create body)', async () => {
    h = harness();
    const a = await uploaded('image', 1);
    const b = await uploaded('image', 2);
    const res = await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'album', media_ids: [a.id, b.id] });
    expect(res.statusCode).toBe(201);
    const post = (res.json() as { data: { id: number; media: Media[]; gallery: unknown } }).data;
    expect(post.media.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(post.gallery).toEqual({ type: 'image', media_ids: [a.id, b.id] });
    const read = (await h.api('GET', `/walls/${h.refs.company_wall_id}/posts/${post.id}`)).json() as { data: { media: Media[] } };
    expect(read.data.media[0]?.url).toBe(a.url);
  });

  it('stores single-type batches as image, video or file galleries and mixes or several videos as mixed (spec: Posts, create body)', async () => {
    h = harness();
    const cases: [('image' | 'video' | 'document')[], string][] = [
      [['image'], 'image'], [['video'], 'video'], [['document', 'document'], 'file'],
      [['video', 'video'], 'mixed'], [['image', 'document'], 'mixed'], [['image', 'video'], 'mixed'],
    ];
    let n = 0;
    for (const [types, kind] of cases) {
      const ids = [];
      for (const type of types) ids.push((await uploaded(type, n++)).id);
      const post = (await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: kind, media_ids: ids })).json() as { data: { gallery: { type: string } } };
      expect(post.data.gallery.type).toBe(kind);
    }
  });

  it('answers 422 for more than 10 media or an unknown media id (spec: Limits, media per post)', async () => {
    h = harness();
    const media = await uploaded('image');
    const eleven = await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'many', media_ids: Array(11).fill(media.id) });
    expect(eleven.statusCode).toBe(422);
    expect((eleven.json() as { message: string }).message).toMatch(/^media_ids/);
    const unknown = await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'ghost', media_ids: [media.id, 999] });
    expect(unknown.statusCode).toBe(422);
    expect((unknown.json() as { message: string }).message).toMatch(/^media_ids\.1/);
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
