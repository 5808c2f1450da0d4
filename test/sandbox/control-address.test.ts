// Issue #24, item 1: the sandbox's control API resets the "platform" and moves its clock (and, under
// npm start, the runtime's). A web page the user opens must not do either through the browser: no
// change with a foreign Origin, no request addressed to a foreign name (DNS rebinding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { rawHttp } from '../helpers/raw-http';

const START = Date.parse('2026-03-02T10:00:00Z');

describe('the sandbox control API, asked by another web page', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock({ frozen: true, start: START }), port: 0, seed: 'empty' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const advance = (headers: Record<string, string>) =>
    rawHttp(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ advance_seconds: 3_600 }),
    });

  it('refuses POST /_sandbox/clock with a foreign Origin, and the clock stays', async () => {
    const res = await advance({ origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: 'foreign_origin', message: expect.stringContaining('sandbox control API') });
    expect(sandbox.clock.now()).toBe(START);
  });

  it('refuses a foreign Origin on a percent-encoded control path too (the router decodes it to /_sandbox)', async () => {
    for (const path of ['/%5Fsandbox/clock', '/_%73andbox/clock']) {
      const res = await rawHttp(`${sandbox.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
        body: JSON.stringify({ advance_seconds: 3_600 }),
      });
      expect(res.status).toBe(403);
    }
    expect(sandbox.clock.now()).toBe(START);
  });

  it('refuses a request addressed to a foreign name, reads and changes alike', async () => {
    const moved = await advance({ host: 'evil.example:4010' });
    expect(moved.status).toBe(403);
    expect(moved.json()).toMatchObject({ error: 'foreign_host', message: expect.stringContaining('foreign Host "evil.example:4010"') });
    const read = await rawHttp(`${sandbox.baseUrl}/_sandbox/clock`, { headers: { host: 'evil.example:4010' } });
    expect(read.status).toBe(403);
    expect(read.json().error).toBe('foreign_host');
    expect(sandbox.clock.now()).toBe(START);
  });

  it('takes a change from its own origin, from a loopback name, and from callers that send no Origin', async () => {
    const port = new URL(sandbox.baseUrl).port;
    expect((await advance({ origin: sandbox.baseUrl })).status).toBe(200);
    expect((await advance({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    const bare = await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 3_600 }),
    });
    expect(bare.status).toBe(200);
    expect(sandbox.clock.now()).toBe(START + 3 * 3_600_000);
  });

  it('leaves the platform API to any name: real platform clients address the host by its own name', async () => {
    const res = await rawHttp(`${sandbox.baseUrl}/api/open/v1/walls`, { headers: { host: 'intranet.example', authorization: `Bearer ${sandbox.token}` } });
    expect(res.status).toBe(200);
  });
});
