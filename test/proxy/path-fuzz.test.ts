import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPathError } from '../../src/api/api-path';
import { apiRoot, apiUrl } from '../../src/api/api-url';
import { createApiClient, type IntrabotApi } from '../../src/api/create-api-client';
import type { RateLimiter } from '../../src/api/rate-limiter';
import { AdjustableClock } from '../../src/clock';
import { registerProxy } from '../../src/proxy/plugin';
import { proxiedPath } from '../../src/proxy/proxy-path';
import { fuzzSeed, seededRandom, type SeededRandom } from '../helpers/seeded-random';

/**
 * Issue #12, defect 1, generated: paths mixing `..`, `.`, `\`, `;`, and their percent-encodings
 * (once, twice, three times, in either case, overlong and full-width forms) after `/api/open/v1/`.
 * The rule: no request the proxy sends to the platform leaves `/api/open/v1/`, however the path is
 * read: as the URL parser reads it, decoded once or more, with `\` as `/`, NFKC-folded, `..;` as `..`.
 * A failure prints its seed; `FUZZ_SEED=<seed>` replays it.
 */
const ROOT_PATH = '/api/open/v1';

const NAMES = ['walls', '1', 'posts', 'incoming', 'tok3n', '_sandbox', 'clock', 'reset', 'api', 'open', 'v1', 'users', 'a.b', '...'];
const DOTS = [
  '..',
  '.',
  '%2e',
  '%2e%2e',
  '.%2e',
  '%2e.',
  '%252e',
  '%252e%252e',
  '%25252e',
  '%c0%ae',
  '%ef%bc%8e%ef%bc%8e',
  '%e2%80%a5',
  '..;',
  '.;x',
  '..;jsessionid=1',
];
const SEPARATORS = ['/', '/', '/', '\\', '%2f', '%5c', '%252f', '%255c', '%25252f', '%25255c', '%ef%bc%8f', '%ef%bc%bc', '%ef%bc%85%32%65', ';'];
const CONTROLS = ['%00', '%09', '%0a', '%250a', '\t', '\n'];

/** Hex digits of escapes in random case: `%2e`, `%2E`; `%5c`, `%5C`. */
function mixCase(random: SeededRandom, text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escape) => (random.int(2) === 0 ? escape.toUpperCase() : escape.toLowerCase()));
}

/** A path relative to the API root; `wire` keeps to what an HTTP request line may carry. */
function generatePath(random: SeededRandom, wire: boolean): string {
  const pieces = 1 + random.int(9);
  let path = '/';
  for (let i = 0; i < pieces; i++) {
    const kind = random.int(10);
    const pool = kind < 4 ? NAMES : kind < 7 ? DOTS : kind < 9 ? SEPARATORS : CONTROLS.filter((c) => !wire || c.startsWith('%'));
    path += mixCase(random, random.pick(pool));
    if (random.int(3) > 0) path += '/';
  }
  if (random.int(6) === 0) path += random.pick(['?q=../../_sandbox', '?x=%2e%2e%5c', '#/../../..', '?a=1#..\\..']);
  return path;
}

/** One step of decoding, as some reader might do it: UTF-8 when it can, bytes as Latin-1 when it cannot. */
function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  }
}

/** Every reading of a path: any mix of decoding, NFKC folding and `\` as `/`, until nothing new appears. */
function readings(path: string): Set<string> {
  const seen = new Set<string>([path]);
  let frontier = [path];
  for (let depth = 0; depth < 8 && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const form of frontier) {
      for (const read of [decodeOnce(form), form.normalize('NFKC'), form.replaceAll('\\', '/')]) {
        if (!seen.has(read)) {
          seen.add(read);
          next.push(read);
        }
      }
    }
    frontier = next;
  }
  return seen;
}

/** Dot segments resolved as a plain server would: `..` and `..;anything` go up one. */
function resolvePlainly(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    const head = segment.split(';', 1)[0];
    if (head === '..') out.pop();
    else if (head !== '.') out.push(segment);
  }
  return `/${out.join('/')}`;
}

function underRoot(path: string): boolean {
  return path === ROOT_PATH || path.startsWith(`${ROOT_PATH}/`);
}

/** The first reading of `pathname` that lands outside the API root, or undefined. */
function escapingReading(pathname: string): string | undefined {
  for (const read of readings(pathname)) {
    const bare = read.split(/[?#]/, 1)[0]!;
    const parsed = new URL(bare.replaceAll('%', '%25'), 'http://platform.test').pathname;
    if (!underRoot(resolvePlainly(bare)) || !underRoot(decodeURIComponent(parsed))) return read;
  }
  return undefined;
}

describe('the proxy path rule, generated (no forwarded request leaves /api/open/v1/)', () => {
  const root = apiRoot('http://platform.test');

  it('the oracle sees the known escapes', () => {
    for (const escape of ['/api/open/v1/..\\_sandbox', '/api/open/v1/%252e%252e/x', '/api/open/v1/..;/x', '/api/open/v1/%ef%bc%8e%ef%bc%8e/x', '/api/x']) {
      expect(escapingReading(escape), escape).toBeDefined();
    }
    expect(escapingReading('/api/open/v1/walls/1...%41')).toBeUndefined();
  });

  it('never builds an outgoing URL outside the API root, from the proxy path or from any path given to the client', () => {
    const seed = fuzzSeed(0x1212);
    const random = seededRandom(seed);
    let forwarded = 0;
    let refused = 0;
    for (let i = 0; i < 4000; i++) {
      const generated = generatePath(random, false);
      const context = `seed ${seed}, case ${i}: ${JSON.stringify(generated)}`;
      // the proxy: raw request URL -> checked path -> the client's URL builder
      let url: URL | undefined;
      try {
        const { pathname, search } = proxiedPath(`${ROOT_PATH}${generated}`);
        url = apiUrl(root, `${pathname}${search}`);
      } catch (error) {
        expect(error, context).toBeInstanceOf(ApiPathError);
      }
      if (url) {
        forwarded++;
        expect(url.origin, context).toBe(root.origin);
        expect(escapingReading(url.pathname), context).toBeUndefined();
      } else refused++;
      // the client on its own, given the path directly: the last door before the token is attached
      try {
        const direct = apiUrl(root, generated);
        expect(escapingReading(direct.pathname), context).toBeUndefined();
      } catch (error) {
        expect(error, context).toBeInstanceOf(ApiPathError);
      }
    }
    // neither everything refused nor everything passed: the rule was exercised both ways
    expect(forwarded, `seed ${seed}`).toBeGreaterThan(200);
    expect(refused, `seed ${seed}`).toBeGreaterThan(2000);
  });
});

describe('the proxy path rule over loopback HTTP, against a recording upstream', () => {
  const KEY = 'fuzz-key-0123456789abc';
  let upstream: Server;
  let app: FastifyInstance;
  let client: IntrabotApi;
  let base: string;
  const received: string[] = [];

  beforeAll(async () => {
    // plays the platform: records every request line it gets, answers an empty list
    upstream = createServer((req, res) => {
      received.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const clock = new AdjustableClock();
    // no pacing: this test counts paths, not requests per minute
    const limiter: RateLimiter = { acquire: async () => undefined, observe: () => undefined, backoff: () => undefined };
    client = createApiClient({ baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, token: 'svc_fuzz_token', clock, limiter });
    app = Fastify();
    await registerProxy(app, {
      tenants: [{ id: 'default', client }],
      keys: [{ name: 'fuzz', key: KEY, scopes: ['*'] }],
      mode: 'connected',
      clock,
      outboxBusy: async () => false,
      logger: { info: () => undefined },
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await client?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const send = (path: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const target = new URL(base);
      const req = httpRequest({ host: target.hostname, port: target.port, path, method: 'GET', headers: { authorization: `Bearer ${KEY}` } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });

  it('forwards only paths that stay under /api/open/v1/ under every reading, and refuses the rest with 400 naming path', async () => {
    const seed = fuzzSeed(0x5c5c);
    const random = seededRandom(seed);
    let forwarded = 0;
    for (let i = 0; i < 400; i++) {
      const path = `${ROOT_PATH}${generatePath(random, true)}`;
      const context = `seed ${seed}, case ${i}: ${JSON.stringify(path)}`;
      const before = received.length;
      const res = await send(path);
      if (res.status === 200) {
        forwarded++;
        expect(received.length, context).toBe(before + 1);
        expect(escapingReading(received.at(-1)!.split('?', 1)[0]!), `${context} reached ${received.at(-1)}`).toBeUndefined();
      } else {
        expect(res.status, context).toBe(400);
        expect(received.length, context).toBe(before);
      }
    }
    expect(forwarded, `seed ${seed}`).toBeGreaterThan(20);
    expect(received.every((url) => url.startsWith(`${ROOT_PATH}/`))).toBe(true);
  });
});
