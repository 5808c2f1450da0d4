import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './proxy-harness';

describe('multipart uploads through the proxy (spec: Media)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('streams an upload larger than the buffered-body limit to the platform byte for byte', async () => {
    // a 1 KiB limit for buffered bodies: a 256 KiB upload passes only because multipart is streamed
    harness = await startHarness({ bodyLimit: 1_024 });
    const proxyUrl = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const bytes = randomBytes(256 * 1_024);
    const form = new FormData();
    form.append('type', 'document');
    form.append('media', new Blob([bytes], { type: 'application/pdf' }), 'q3-report.pdf');

    const res = await fetch(`${proxyUrl}/api/open/v1/media`, { method: 'POST', headers: { authorization: 'Bearer sandbox-proxy-key' }, body: form });
    expect(res.status).toBe(201);
    const media = ((await res.json()) as { data: { id: number; url: string } }).data;
    const stored = Buffer.from(await (await fetch(media.url)).arrayBuffer());
    expect(stored.equals(bytes)).toBe(true);
    expect(harness.lines).toMatchObject([{ key: 'sandbox', method: 'POST', path: '/media', status: 201 }]);
  });

  it("passes the platform's 422 for a multipart body missing its file through unchanged", async () => {
    harness = await startHarness();
    const proxyUrl = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const form = new FormData();
    form.append('type', 'document');
    const res = await fetch(`${proxyUrl}/api/open/v1/media`, { method: 'POST', headers: { 'x-proxy-key': 'sandbox-proxy-key' }, body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('media') });
  });
});
