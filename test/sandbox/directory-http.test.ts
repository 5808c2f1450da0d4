import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { pngBytes } from './http-harness';

describe('sandbox over real HTTP', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => sandbox?.close());

  it('serves the directory on a random loopback port with createSandbox({ port: 0 })', async () => {
    sandbox = await createSandbox({ port: 0 });
    const headers = { authorization: `Bearer ${sandbox.token}` };
    const res = await fetch(`${sandbox.baseUrl}/api/open/v1/groups?type=department`, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { name: string }[] };
    expect(body.data.map((g) => g.name)).toEqual(['Engineering', 'Sales', 'People', 'Operations']);
    expect((await fetch(`${sandbox.baseUrl}/api/open/v1/groups`)).status).toBe(401);
  });

  it('uploads media as multipart and serves it back at its absolute url (spec: Media)', async () => {
    sandbox = await createSandbox({ port: 0 });
    const form = new FormData();
    form.append('type', 'image');
    form.append('media', new Blob([pngBytes(3, 4)], { type: 'image/png' }), 'dot.png');
    const res = await fetch(`${sandbox.baseUrl}/api/open/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}` }, body: form });
    expect(res.status).toBe(201);
    const media = ((await res.json()) as { data: { url: string; width: number; height: number } }).data;
    expect(media).toMatchObject({ width: 3, height: 4 });
    expect(media.url.startsWith(sandbox.baseUrl)).toBe(true);
    const file = await fetch(media.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pngBytes(3, 4)))).toBe(true);
  });
});
