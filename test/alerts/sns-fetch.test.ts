import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnsFetch, SnsFetchFailure } from '../../src/alerts/sns/sns-fetch';

// the default fetcher against a real loopback server (the host check is the receiver's, before this)
describe('sns: the default certificate and confirmation GET', () => {
  let server: Server;
  let base: string;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url === '/cert.pem') return res.end('-----BEGIN CERTIFICATE-----\n...');
      if (req.url === '/moved') return res.writeHead(302, { location: '/cert.pem' }).end();
      if (req.url === '/broken') return res.writeHead(500).end('oops');
      if (req.url === '/huge') return res.end('x'.repeat(70 * 1024));
      // /silent: never answers
      return undefined;
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  const fetch = createSnsFetch({ timeoutMs: 300 });

  it('answers the body of a 2xx', async () => {
    await expect(fetch(new URL('/cert.pem', base))).resolves.toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it('follows no redirect, and refuses a status other than 2xx', async () => {
    requested.length = 0;
    await expect(fetch(new URL('/moved', base))).rejects.toThrow(/answered 302/);
    expect(requested).toEqual(['/moved']);
    await expect(fetch(new URL('/broken', base))).rejects.toThrow(SnsFetchFailure);
  });

  it('stops reading beyond 64 KiB', async () => {
    await expect(fetch(new URL('/huge', base))).rejects.toThrow(/larger than 65536 bytes/);
  });

  it('gives up on a server that does not answer within its time limit', async () => {
    await expect(fetch(new URL('/silent', base))).rejects.toThrow(/no answer in time/);
  });
});
