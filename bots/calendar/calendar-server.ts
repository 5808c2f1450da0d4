import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CalendarServer {
  url(path: string): string;
  /** Every request, in order. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Serves `text` (or answers `status`) at `path` from now on; `undefined` serves the fixture again. */
  answer(path: string, answer: { text?: string; status?: number } | undefined): void;
  close(): Promise<void>;
}

/**
 * A calendar host on loopback for the tests: `fixtures/<path>` as text/calendar with an ETag of its
 * content, and a 304 to a matching `If-None-Match`, as calendar servers answer subscriptions.
 */
export async function startCalendarServer(): Promise<CalendarServer> {
  const answers = new Map<string, { text?: string; status?: number }>();
  const requests: CalendarServer['requests'] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path, headers: req.headers });
    const given = answers.get(path);
    if (given?.status !== undefined) return res.writeHead(given.status).end('error');
    let text: string;
    try {
      text = given?.text ?? readFileSync(new URL(`./fixtures${path}`, import.meta.url), 'utf8');
    } catch {
      return res.writeHead(404).end();
    }
    const etag = `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag }).end(text);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${base}${path}`,
    requests,
    answer: (path, answer) => (answer ? answers.set(path, answer) : answers.delete(path)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
