import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMessage, cliConfig, createRuntimeClient, isListening, pickTenant } from '../../src/cli/runtime-client';
import { loadConfig } from '../../src/runtime/config/config';
import { captureIo, freePort } from './cli-io';

describe('runtime client', () => {
  let app: FastifyInstance;
  let port: string;
  const seen: (string | undefined)[] = [];

  beforeAll(async () => {
    app = Fastify();
    app.all('/*', async (request) => {
      seen.push(request.headers.authorization);
      return { ok: true, path: request.url };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = String((app.server.address() as { port: number }).port);
  });
  afterAll(async () => app?.close());

  it('calls the runtime on loopback at INTRABOT_PORT with the admin token as a bearer', async () => {
    const client = createRuntimeClient({ env: { INTRABOT_PORT: port, INTRABOT_ADMIN_TOKEN: 'adm-123' } });
    expect(client.baseUrl).toBe(`http://127.0.0.1:${port}`);
    const answer = await client.request('GET', '/_admin/deliveries?state=dead');
    expect(answer).toEqual({ reachable: true, status: 200, body: { ok: true, path: '/_admin/deliveries?state=dead' } });
    expect(seen.at(-1)).toBe('Bearer adm-123');
  });

  it('sends the admin token to admin routes only', async () => {
    const client = createRuntimeClient({ env: { INTRABOT_PORT: port, INTRABOT_ADMIN_TOKEN: 'adm-123' } });
    await client.request('POST', '/hooks/sandbox/ops', { body: '{}' });
    expect(seen.at(-1)).toBeUndefined();
  });

  it('defaults to port 3000', () => {
    expect(createRuntimeClient({ env: {} }).baseUrl).toBe('http://127.0.0.1:3000');
  });

  it('answers "not reachable" instead of throwing when nothing listens', async () => {
    const down = String(await freePort());
    expect(await createRuntimeClient({ env: { INTRABOT_PORT: down } }).request('GET', '/_admin/jobs')).toEqual({ reachable: false });
    expect(await isListening(`http://127.0.0.1:${down}/healthz`)).toBe(false);
    expect(await isListening(`http://127.0.0.1:${port}/healthz`)).toBe(true);
  });

  it('reads the message of an error answer in either shape', () => {
    expect(answerMessage({ error: 'not_found', message: 'no job "x"' })).toBe('no job "x"');
    expect(answerMessage({ error: { message: 'bad' } })).toBe('bad');
    expect(answerMessage('plain')).toBe('plain');
  });

  it('picks the only tenant, or the named one, and nothing when several are unnamed', () => {
    const config = loadConfig({ env: {}, cwd: '/nonexistent' });
    expect(pickTenant(config, undefined)?.id).toBe('sandbox');
    expect(pickTenant(config, 'sandbox')?.id).toBe('sandbox');
    expect(pickTenant(config, 'acme')).toBeUndefined();
    const two = { ...config, tenants: [config.tenants[0]!, { ...config.tenants[0]!, id: 'acme' }] };
    expect(pickTenant(two, undefined)).toBeUndefined();
    expect(pickTenant(two, 'acme')?.id).toBe('acme');
  });
});

describe('cliConfig', () => {
  it('prints an invalid setting with its key and answers undefined instead of throwing', () => {
    const io = captureIo({ INTRABOT_PORT: 'eighty' }, '/nonexistent');
    expect(cliConfig(io, 'run')).toBeUndefined();
    expect(io.err).toMatch(/^intrabot run: INTRABOT_PORT: must be a port number/);
  });
});
