import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiServerError } from '../../src/api/errors';
import { AdjustableClock } from '../../src/clock';
import { uploadOnce } from '../../src/outbox/upload-once';
import type { SendClient } from '../../src/outbox/send-client';
import { openTempStore } from './helpers';
import { openPlatformRig, type PlatformRig } from './platform-rig';

let current: PlatformRig | undefined;
let dir: string | undefined;
afterEach(async () => {
  await current?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  current = undefined;
  dir = undefined;
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000030806000000', 'hex');

async function setup(): Promise<PlatformRig> {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  current = await openPlatformRig(clock, { uncertainDelayMs: 2_000 });
  dir = await mkdtemp(join(tmpdir(), 'intrabot-media-'));
  return current;
}

describe('media of queued posts', () => {
  it('uploads each file once and reuses its id when the post is retried (spec: Media, two-step use)', async () => {
    const r = await setup();
    const path = join(dir ?? '', 'chart.png');
    await writeFile(path, PNG);
    const blobRef = await r.outbox.stashMedia(Buffer.from('%PDF-1.4 report'));
    // an upload fails once, then the post itself fails twice
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503, count: 2 });
    await r.outbox.enqueue({
      kind: 'post',
      tenant: 'sandbox',
      wallId: 1,
      body: 'Q3 numbers',
      media: [
        { type: 'image', path },
        { type: 'document', blobRef, filename: 'q3.pdf' },
      ],
    });
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/media', status: 503, count: 1 });
    r.sender.start();
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);

    const uploads = await r.platform.requests({ method: 'POST', path: '/api/open/v1/media' });
    // two files, two successful uploads, across one failed upload and three attempts of the post
    expect(uploads.map((u) => u.status)).toEqual([503, 201, 201]);
    expect((await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/1/posts' })).map((q) => q.status)).toEqual([503, 503, 201]);
    const posts = (await r.platform.wallPosts(1)).filter((p) => p.body === 'Q3 numbers');
    expect(posts).toHaveLength(1);
    const post = await r.platform.api<{ data: { media: unknown[] } }>('GET', `/walls/1/posts/${posts[0]?.id}`);
    expect(post.body.data.media).toHaveLength(2);
    // the stashed file is gone once the post is delivered
    expect(await r.store.kv('outbox').get(blobRef)).toBeUndefined();
  });
});

describe('uploadOnce', () => {
  it('keeps the id of a file uploaded before a later file failed, and uploads only the rest on retry', async () => {
    const temp = await openTempStore(new AdjustableClock({ frozen: true }));
    try {
      const uploaded: string[] = [];
      const client = {
        async call(_endpoint: unknown, input: { form: FormData }) {
          const file = input.form.get('media') as File;
          uploaded.push(file.name);
          return { id: uploaded.length };
        },
      } as unknown as SendClient;
      const kv = temp.store.kv('outbox');
      const blobA = 'blob:a';
      const blobB = 'blob:b';
      await kv.set(blobA, Buffer.from('A').toString('base64'));
      await kv.set(blobB, Buffer.from('B').toString('base64'));
      const media = [
        { type: 'document' as const, blobRef: blobA, filename: 'a.txt' },
        { type: 'document' as const, blobRef: blobB, filename: 'b.txt' },
      ];
      const input = { client, kv, entryId: 'e1', media, ttlMs: 60_000 };
      await expect(uploadOnce(input)).resolves.toEqual([1, 2]);
      // already uploaded: a retry of the same entry uploads nothing
      await expect(uploadOnce(input)).resolves.toEqual([1, 2]);
      // a new entry whose second upload fails once
      const input2 = { ...input, entryId: 'e2' };
      let calls = 0;
      const flaky = {
        async call(endpoint: unknown, callInput: { form: FormData }) {
          calls += 1;
          if (calls === 2) throw new ApiServerError({ method: 'POST', path: '/api/open/v1/media', status: 503 }, 'unavailable');
          return client.call(endpoint as never, callInput as never);
        },
      } as unknown as SendClient;
      await expect(uploadOnce({ ...input2, client: flaky })).rejects.toBeInstanceOf(ApiServerError);
      await expect(uploadOnce({ ...input2, client: flaky })).resolves.toEqual([3, 4]);
      expect(uploaded).toEqual(['a.txt', 'b.txt', 'a.txt', 'b.txt']);
    } finally {
      await temp.close();
    }
  });
});
