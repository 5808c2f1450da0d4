import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, body kept byte for byte for signature checks. */
export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  rawBody: string;
}

export interface DeliveryReceiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  received: ReceivedDelivery[];
  /** Resolves once `count` deliveries arrived, or after `timeoutMs` with what arrived. */
  waitFor(count: number, timeoutMs: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers;
}

/**
 * A loopback HTTP server that records what a sandbox delivers to it and answers 200, so the ping
 * check can look at a real signed delivery. The platform cannot reach a laptop's loopback, so it is
 * used only against a sandbox.
 */
export async function startDeliveryReceiver(): Promise<DeliveryReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '/', headers: headersOf(request), rawBody: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor(count, timeoutMs) {
      return new Promise((resolve) => {
        const done = (): void => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve([...received]);
        };
        const check = (): void => {
          if (received.length >= count) done();
        };
        // a real-time bound: the delivery crosses a real socket, whatever the sandbox clock says
        const timer = setTimeout(done, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
