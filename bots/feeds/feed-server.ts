import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers a path instead of serving its fixture. */
export interface Answer {
  status?: number;
  body?: string;
  type?: string;
  /** Never answer (a feed that hangs). */
  hang?: boolean;
}

export interface FeedServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  url(path: string): string;
  /** Every request, in order: its path and headers. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Answers `path` so from now on (a fixture's text of our own, an error, no answer); `undefined` serves the fixture again. */
  answer(path: string, answer: Answer | undefined): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { xml: 'application/xml', json: 'application/feed+json', png: 'image/png' };
/** The fixtures name their images at this origin, as they would on the feed's own site; the server rewrites it to its own. */
export const FIXTURE_ORIGIN = 'http://127.0.0.1:8080';

/**
 * A feed site on loopback for the tests: serves `fixtures/<path>` with an ETag of its content and
 * answers 304 to a matching `If-None-Match`, as a well-behaved feed server does (RFC 9110, 13.1.2).
 */
export async function startFeedServer(): Promise<FeedServer> {
  const answers = new Map<string, Answer>();
  const requests: FeedServer['requests'] = [];
  let base = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path, headers: req.headers });
    const given = answers.get(path);
    if (given?.hang) return;
    if (given?.status !== undefined && given.status !== 200) return res.writeHead(given.status, { 'content-type': 'text/plain' }).end(given.body ?? 'error');
    let body: Buffer;
    try {
      body = given?.body !== undefined ? Buffer.from(given.body) : readFileSync(new URL(`./fixtures${path}`, import.meta.url));
    } catch {
      return res.writeHead(404).end();
    }
    const type = given?.type ?? TYPES[path.split('.').pop() ?? ''] ?? 'application/octet-stream';
    if (!type.startsWith('image/')) body = Buffer.from(body.toString('utf8').replaceAll(FIXTURE_ORIGIN, base));
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': type, etag, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (path) => `${base}${path}`,
    requests,
    answer: (path, answer) => (answer ? answers.set(path, answer) : answers.delete(path)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
