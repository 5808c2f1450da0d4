import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client';
import { ApiTimeoutError } from '../../../src/api/errors';
import { classifyTransportFault, type TransportFault } from '../../../src/api/transport';
import { AdjustableClock } from '../../../src/clock';
import { TOKEN, testEndpoints as ep } from './platform-double';

const open: { server: Server; client: ApiClient }[] = [];

/** A loopback server whose handler the test chooses; counts TCP connections. */
async function serve(handler: (res: ServerResponse) => void, options: Partial<ApiClientOptions> = {}) {
  let connections = 0;
  const server = createServer((_req, res) => handler(res));
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, clock: new AdjustableClock(), retry: { attempts: 1 }, ...options });
  open.push({ server, client });
  return { client, connections: () => connections };
}

afterEach(async () => {
  for (const { server, client } of open.splice(0)) {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const ok = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"data":{"id":1}}');
};

describe('transport on undici', () => {
  it('keeps the connection alive between requests to the same host', async () => {
    const { client, connections } = await serve(ok);
    for (let i = 0; i < 3; i += 1) {
      await client.call(ep.get, { params: { id: 1 } });
      // the pool frees the socket a tick after the body ends; sequential callers normally are that slow
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(connections()).toBe(1);
  });

  it('gives up waiting for headers after the headers timeout', async () => {
    const { client } = await serve(() => undefined, { timeouts: { headersMs: 100 } });
    const error = await client.call(ep.get, { params: { id: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ phase: 'headers' });
  });

  it('gives up on a body that stalls after the body timeout', async () => {
    const { client } = await serve(
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":');
      },
      { timeouts: { bodyMs: 100 } },
    );
    const error = await client.call(ep.get, { params: { id: 1 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'api_timeout', phase: 'body' });
  });

  it("stops a request when its AbortSignal fires, with the signal's reason", async () => {
    const controller = new AbortController();
    // fired once the request has reached the server, which never answers it
    const { client } = await serve(() => controller.abort(new Error('bot stopped')));
    const pending = client.call(ep.get, { params: { id: 1 }, signal: controller.signal });
    await expect(pending).rejects.toThrow('bot stopped');
  });

  it('reports a refused connection as a network error that never left', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, clock: new AdjustableClock(), retry: { attempts: 1 } });
    const error = await client.call(ep.get, { params: { id: 1 } }).catch((e: unknown) => e);
    await client.close();
    expect(error).toMatchObject({ code: 'api_network', requestSent: false });
  });
});

describe('classifyTransportFault', () => {
  const vectors: [string, unknown, TransportFault][] = [
    ['a connect timeout', new undiciErrors.ConnectTimeoutError(), { kind: 'timeout', phase: 'connect' }],
    ['a headers timeout', new undiciErrors.HeadersTimeoutError(), { kind: 'timeout', phase: 'headers' }],
    ['a body timeout', new undiciErrors.BodyTimeoutError(), { kind: 'timeout', phase: 'body' }],
    ['a refused connection', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), { kind: 'network', requestSent: false }],
    ['an unknown host', Object.assign(new Error('dns'), { code: 'ENOTFOUND' }), { kind: 'network', requestSent: false }],
    [
      'a refusal wrapped as a cause',
      new Error('failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
      { kind: 'network', requestSent: false },
    ],
    ['a reset connection', Object.assign(new Error('reset'), { code: 'ECONNRESET' }), { kind: 'network', requestSent: true }],
    ['a closed socket', new undiciErrors.SocketError('other side closed'), { kind: 'network', requestSent: true }],
    ['anything unknown', new Error('??'), { kind: 'network', requestSent: true }],
  ];
  for (const [what, error, expected] of vectors) {
    it(`classifies ${what}`, () => {
      expect(classifyTransportFault(error)).toEqual(expected);
    });
  }
});
