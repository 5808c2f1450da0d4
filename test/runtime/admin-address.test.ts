// Issue #24, item 1: a web page the user opens must not drive the admin routes through the browser.
// A cross-site form or fetch names its site in Origin (foreign_origin on changes); a DNS-rebinding
// page addresses its own name in Host (foreign_host on every request), in sandbox mode, where no
// token is asked, and in connected mode with the token too. Callers that send no Origin keep working.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { startPair, type Pair } from '../../src/testing';
import { rawHttp } from '../helpers/raw-http';

const EVIL_ORIGIN = 'http://evil.example';
const REBOUND_HOST = 'evil.example:3000';

describe('admin routes and the console in sandbox mode behind a public address', () => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/pause-bots'), bots: ['pausable'], env: { INTRABOT_PUBLIC_URL: 'https://bots.example.com' } });
  });
  afterAll(async () => {
    await pair?.close();
  });

  it("refuse requests addressed to INTRABOT_PUBLIC_URL's host, which asks no token in sandbox mode (a tunnel would open them to anyone)", async () => {
    const url = pair.runtime.inspect().url!;
    for (const path of ['/_admin/bots/paused', '/console/api/bots']) {
      const res = await rawHttp(`${url}${path}`, { headers: { host: 'bots.example.com' } });
      expect(res.status, path).toBe(403);
      expect(res.json(), path).toMatchObject({ error: 'foreign_host' });
    }
  });
});

describe('admin routes in sandbox mode, asked by another web page', () => {
  let pair: Pair;
  let url: string;

  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/pause-bots'), bots: ['pausable'] });
    url = pair.runtime.inspect().url!;
  });
  afterAll(async () => {
    await pair?.close();
  });

  const paused = async () => (await pair.runtime.app.inject({ method: 'GET', url: '/_admin/bots/paused' })).json().data as unknown[];

  it('refuse a pause with a foreign Origin and no body (a cross-site form or fetch), and the bot stays unpaused', async () => {
    const res = await rawHttp(`${url}/_admin/bots/pausable/pause`, { method: 'POST', headers: { origin: EVIL_ORIGIN } });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: 'foreign_origin', message: expect.stringContaining('foreign Origin') });
    const injected = await pair.runtime.app.inject({ method: 'POST', url: '/_admin/bots/pausable/pause', headers: { origin: 'null' } });
    expect(injected.json()).toMatchObject({ error: 'foreign_origin' });
    expect(await paused()).toEqual([]);
  });

  it("refuse a foreign Origin on a change even when it is another port of this machine (another local web app's page)", async () => {
    const port = new URL(url).port;
    const res = await rawHttp(`${url}/_admin/bots/pausable/pause`, { method: 'POST', headers: { origin: `http://127.0.0.1:${Number(port) + 1}` } });
    expect(res.status).toBe(403);
    expect(await paused()).toEqual([]);
  });

  it('refuse a request addressed to a foreign name (DNS rebinding) on pause, resume, paused and deliveries', async () => {
    for (const [method, path] of [
      ['POST', '/_admin/bots/pausable/pause'],
      ['POST', '/_admin/bots/pausable/resume'],
      ['GET', '/_admin/bots/paused'],
      ['GET', '/_admin/deliveries'],
    ] as const) {
      const res = await rawHttp(`${url}${path}`, { method, headers: { host: REBOUND_HOST } });
      expect(res.status, path).toBe(403);
      expect(res.json(), path).toMatchObject({ error: 'foreign_host', message: expect.stringContaining('foreign Host "evil.example:3000"') });
    }
    expect(await paused()).toEqual([]);
  });

  it('take a change from their own origin and from callers that send none (curl, the CLI)', async () => {
    const own = await rawHttp(`${url}/_admin/bots/pausable/pause`, { method: 'POST', headers: { origin: new URL(url).origin } });
    expect(own.status).toBe(200);
    expect(await paused()).toEqual([expect.objectContaining({ bot: 'pausable' })]);
    const bare = await fetch(`${url}/_admin/bots/pausable/resume`, { method: 'POST' });
    expect(bare.status).toBe(200);
    expect(await paused()).toEqual([]);
  });

  it('answer a foreign Origin on a read: it changes nothing, and no CORS header lets the page see the answer', async () => {
    const res = await rawHttp(`${url}/_admin/bots/paused`, { headers: { origin: EVIL_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('admin routes in connected mode, with the admin token, asked by another web page', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let runtime: Runtime;
  const auth = { authorization: 'Bearer admin-s3cret' };

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-admin-address-'));
    const env = {
      INTRABOT_BASE_URL: sandbox.baseUrl,
      INTRABOT_TOKEN: sandbox.token,
      INTRABOT_SECRET_KEY: 'admin-address-test-key',
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_PORT: '0',
      INTRABOT_ADMIN_TOKEN: 'admin-s3cret',
      INTRABOT_PUBLIC_URL: 'https://bots.example.com',
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env, only: ['echo'] });
    await runtime.start();
  });
  afterAll(async () => {
    await runtime?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuse a foreign Host on pause, resume, paused and deliveries, the right token notwithstanding', async () => {
    for (const [method, url] of [
      ['POST', '/_admin/bots/echo/pause'],
      ['POST', '/_admin/bots/echo/resume'],
      ['GET', '/_admin/bots/paused'],
      ['GET', '/_admin/deliveries'],
    ] as const) {
      const res = await runtime.app.inject({ method, url, headers: { ...auth, host: REBOUND_HOST } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe('foreign_host');
    }
    const paused = await runtime.app.inject({ method: 'GET', url: '/_admin/bots/paused', headers: auth });
    expect(paused.json().data).toEqual([]);
  });

  it('refuse a foreign Origin on a change with the token, and change nothing', async () => {
    const res = await rawHttp(`${runtime.inspect().url}/_admin/bots/echo/pause`, { method: 'POST', headers: { ...auth, origin: EVIL_ORIGIN } });
    expect(res.status).toBe(403);
    expect(res.json().error).toBe('foreign_origin');
    const paused = await runtime.app.inject({ method: 'GET', url: '/_admin/bots/paused', headers: auth });
    expect(paused.json().data).toEqual([]);
  });

  it("take requests addressed to INTRABOT_PUBLIC_URL's host (a TLS proxy on this machine) and its origin", async () => {
    const res = await runtime.app.inject({ method: 'GET', url: '/_admin/bots/paused', headers: { ...auth, host: 'bots.example.com' } });
    expect(res.statusCode).toBe(200);
    const own = await runtime.app.inject({
      method: 'POST',
      url: '/_admin/bots/echo/resume',
      headers: { ...auth, host: 'bots.example.com', origin: 'https://bots.example.com' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('still ask the token first of callers addressing it properly', async () => {
    const res = await runtime.app.inject({ method: 'GET', url: '/_admin/bots/paused', headers: { host: '127.0.0.1:3000' } });
    expect(res.statusCode).toBe(401);
  });
});
