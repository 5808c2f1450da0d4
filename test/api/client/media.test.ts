import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallInput, Caller } from '../../../src/api/caller';
import { ApiClient } from '../../../src/api/client';
import type { AnyEndpoint } from '../../../src/api/schemas/endpoint';
import { createPostWithMedia, uploadMedia } from '../../../src/api/media';
import { AdjustableClock } from '../../../src/clock';
import { InvalidInputError } from '../../../src/errors';
import { TOKEN } from './platform-double';

interface Received {
  path: string;
  contentType: string;
  fields: Record<string, { filename?: string; type?: string; text: string } | string>;
}

/** A real loopback server that parses multipart bodies, playing POST /media and POST /walls/{id}/posts. */
async function startPlatform(): Promise<{ server: Server; baseUrl: string; received: Received[] }> {
  const received: Received[] = [];
  let nextId = 100;
  const server = createServer((req, res) => {
    void handle(req).then(
      (reply) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply));
      },
      // a request this double cannot parse fails the client's call, not the test process
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      },
    );
  });
  async function handle(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const contentType = req.headers['content-type'] ?? '';
    const entry: Received = { path: req.url ?? '', contentType, fields: {} };
    received.push(entry);
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
      for (const [name, value] of form.entries()) {
        entry.fields[name] = typeof value === 'string' ? value : { filename: value.name, type: value.type, text: await value.text() };
      }
      const media = entry.fields.media as { filename: string; type: string; text: string };
      nextId += 1;
      return {
        data: {
          id: nextId,
          type: entry.fields.type,
          mime_type: media.type,
          filename: media.filename,
          size: media.text.length,
          url: 'https://cdn/x',
          created_at: '2030-01-15T09:00:00+01:00',
        },
      };
    }
    return { error: 'not_found' };
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}`, received };
}

describe('media upload (spec: Media)', () => {
  let platform: Awaited<ReturnType<typeof startPlatform>>;
  let client: ApiClient;
  let dir: string;

  beforeAll(async () => {
    platform = await startPlatform();
    client = new ApiClient({ baseUrl: platform.baseUrl, token: TOKEN, clock: new AdjustableClock(), retry: { attempts: 1 } });
    dir = await mkdtemp(join(tmpdir(), 'intrabot-media-'));
  });

  afterAll(async () => {
    await client.close();
    await new Promise((resolve) => platform.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads a Buffer as multipart media + type with its filename', async () => {
    const media = await uploadMedia(client, { data: Buffer.from('PNGDATA'), filename: 'chart.png', type: 'image' });
    const last = platform.received.at(-1)!;
    expect(last.path).toBe('/api/open/v1/media');
    expect(last.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.fields.type).toBe('image');
    expect(last.fields.media).toEqual({ filename: 'chart.png', type: 'image/png', text: 'PNGDATA' });
    expect(media).toMatchObject({ filename: 'chart.png', type: 'image', mime_type: 'image/png' });
  });

  it('uploads exactly the bytes of a view, into a larger buffer or a shared one', async () => {
    const shared = new Uint8Array(new SharedArrayBuffer(16));
    shared.set(Buffer.from('xxGIF89ayy'));
    for (const data of [Buffer.from('xxGIF89ayy').subarray(2, 8), shared.subarray(2, 8)]) {
      await uploadMedia(client, { data, filename: 'dot.gif', type: 'image' });
      expect(platform.received.at(-1)!.fields.media).toEqual({ filename: 'dot.gif', type: 'image/gif', text: 'GIF89a' });
    }
  });

  it('uploads from a stream, spooled through a temporary file that is removed afterwards', async () => {
    const spools = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('intrabot-upload-'));
    const before = await spools();
    const stream = Readable.from([Buffer.from('part one, '), Buffer.from('part two')]);
    await uploadMedia(client, { data: stream, filename: 'notes.txt', type: 'document' });
    const last = platform.received.at(-1)!;
    expect(last.fields.type).toBe('document');
    expect(last.fields.media).toEqual({ filename: 'notes.txt', type: 'text/plain', text: 'part one, part two' });
    expect(await spools()).toEqual(before);
  });

  it('uploads from a file path, naming it after the file', async () => {
    const path = join(dir, 'report.pdf');
    await writeFile(path, '%PDF-1.7 fake');
    await uploadMedia(client, { data: { path }, type: 'document' });
    const last = platform.received.at(-1)!;
    expect(last.fields.media).toEqual({ filename: 'report.pdf', type: 'application/pdf', text: '%PDF-1.7 fake' });
  });

  it('refuses media without a filename when it is not a file path', async () => {
    const before = platform.received.length;
    await expect(uploadMedia(client, { data: Buffer.from('x'), type: 'image' })).rejects.toMatchObject({ field: 'filename' });
    expect(platform.received).toHaveLength(before);
  });

  it('refuses an upload with a bad type before sending, naming the form field', async () => {
    const before = platform.received.length;
    const attempt = uploadMedia(client, { data: Buffer.from('x'), filename: 'a.mp3', type: 'audio' as never });
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toMatchObject({ field: 'form.type' });
    expect(platform.received).toHaveLength(before);
  });

  it('uploads nothing when the post itself would be refused (more than 10 media)', async () => {
    const before = platform.received.length;
    const media = Array.from({ length: 11 }, (_, i) => ({ data: Buffer.from('x'), filename: `${i}.png`, type: 'image' as const }));
    await expect(createPostWithMedia(client, { wallId: 3, body: 'too many', media })).rejects.toMatchObject({ field: 'body.media_ids' });
    expect(platform.received).toHaveLength(before);
  });
});

describe('createPostWithMedia', () => {
  /** A Caller in memory: records what it is asked and answers like the platform would. */
  function recordingCaller() {
    const calls: { id: string; input: CallInput<AnyEndpoint> }[] = [];
    let nextId = 40;
    const caller: Caller = {
      call: (async (endpoint: AnyEndpoint, input: CallInput<AnyEndpoint> = {}) => {
        calls.push({ id: endpoint.id, input });
        return endpoint.id === 'media.upload' ? { id: nextId++ } : { id: 7, body: (input.body as { body: string }).body };
      }) as Caller['call'],
      paginate: () => {
        throw new Error('not used');
      },
    };
    return { caller, calls };
  }

  it('uploads every file, then creates the post with their ids in media_ids, in one call', async () => {
    const { caller, calls } = recordingCaller();
    const post = await createPostWithMedia(caller, {
      wallId: 3,
      body: 'Release notes',
      bot_user_id: 5,
      media: [
        { data: Buffer.from('a'), filename: 'a.png', type: 'image' },
        { data: Buffer.from('b'), filename: 'b.pdf', type: 'document' },
      ],
    });
    expect(calls.map((c) => c.id)).toEqual(['media.upload', 'media.upload', 'posts.create']);
    expect(calls[0]?.input.form?.get('type')).toBe('image');
    expect(calls[2]?.input).toMatchObject({ params: { wall_id: 3 }, body: { body: 'Release notes', bot_user_id: 5, media_ids: [40, 41] } });
    expect(post).toMatchObject({ id: 7 });
  });
});
