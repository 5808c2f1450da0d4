import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 2026-11-23 09:00 in Berlin, a Monday. */
export const START = Date.UTC(2026, 10, 23, 8);

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  url: string;
}

/** A real HTTP receiver on 127.0.0.1:0 answering with the next status of `statuses` (the last one repeats). */
export async function startReceiver(statuses: number[] = [200], options: { hang?: boolean } = {}) {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let index = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      for (const w of waiters.filter((x) => received.length >= x.count)) w.resolve();
      if (options.hang) return;
      const status = statuses[Math.min(index, statuses.length - 1)] ?? 200;
      index += 1;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
