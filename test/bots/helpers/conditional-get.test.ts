import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionalGet, FetchFailedError } from '../../../src/bots/helpers';
import { freePort } from '../../helpers/free-port';

/** A feed server on loopback: ETag "v1" for /feed, 500 for /broken, no answer for /hang; it records what it was sent. */
let server: Server;
let base: string;
const seen: IncomingMessage['headers'][] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/feed') {
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
      return res.writeHead(200, { etag: '"v1"', 'last-modified': 'Thu, 03 Dec 2026 08:00:00 GMT' }).end('<rss/>');
    }
    if (req.url === '/big') return res.writeHead(200).end('x'.repeat(2048));
    if (req.url === '/hang') return; // never answers
    res.writeHead(500).end('oops');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

function fakeCtx() {
  const kept = new Map<string, unknown>();
  return {
    kept,
    signal: new AbortController().signal,
    store: {
      get: async <T>(key: string) => kept.get(key) as T | undefined,
      set: async (key: string, value: unknown) => void kept.set(key, value),
      delete: async (key: string) => void kept.delete(key),
    },
  };
}

describe('conditionalGet: a GET that sends back the validators of the last committed answer', () => {
  it('sends If-None-Match and If-Modified-Since once an answer is committed, and reads a 304 as not modified', async () => {
    const ctx = fakeCtx();
    const first = await conditionalGet(ctx, `${base}/feed`, { key: 'http:a' });
    expect(first).toMatchObject({ notModified: false, text: '<rss/>' });
    // not committed: the next read is unconditional
    expect((await conditionalGet(ctx, `${base}/feed`, { key: 'http:a' })).notModified).toBe(false);
    await first.commit();
    const second = await conditionalGet(ctx, `${base}/feed`, { key: 'http:a' });
    expect(second).toMatchObject({ notModified: true, text: undefined });
    expect(seen.at(-1)).toMatchObject({ 'if-none-match': '"v1"', 'if-modified-since': 'Thu, 03 Dec 2026 08:00:00 GMT' });
  });

  it('answers the kept body on a 304 with keepBody', async () => {
    const ctx = fakeCtx();
    await (await conditionalGet(ctx, `${base}/feed`, { key: 'http:b', keepBody: true })).commit();
    expect(await conditionalGet(ctx, `${base}/feed`, { key: 'http:b', keepBody: true })).toMatchObject({ notModified: true, text: '<rss/>' });
  });

  it('fails with FetchFailedError naming the status, the timeout or the size, and never the query', async () => {
    const ctx = fakeCtx();
    await expect(conditionalGet(ctx, `${base}/broken?token=s3cret`, { key: 'k' })).rejects.toThrow(new FetchFailedError(`${base}/broken answered 500`, 500));
    await expect(conditionalGet(ctx, `${base}/hang`, { key: 'k', timeoutMs: 100 })).rejects.toThrow(`${base}/hang did not answer within 100 ms`);
    await expect(conditionalGet(ctx, `${base}/big`, { key: 'k', maxBytes: 1024 })).rejects.toThrow('is larger than 1024 bytes');
    const closed = await freePort();
    await expect(conditionalGet(ctx, `http://127.0.0.1:${closed}/x`, { key: 'k' })).rejects.toThrow(`127.0.0.1:${closed}/x could not be read: ECONNREFUSED`);
  });
});
