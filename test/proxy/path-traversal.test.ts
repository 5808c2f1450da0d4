import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyKeyConfig } from '../../src/proxy/proxy-keys';
import { startHarness, type Harness } from './proxy-harness';

/**
 * Issue #12, defect 1: the URL parser reads `\` as `/` and resolves `..`, so a proxy path such as
 * `/walls/..\..\..\..\_sandbox\clock` reached the platform host outside the API, token attached, and
 * `/incoming/..\..\..\..\_sandbox\reset` (no scope needed) reset the sandbox with a read-only key.
 * These are the curl reproductions, over loopback HTTP, checked against the sandbox's state.
 */
const READ_ONLY: ProxyKeyConfig = { name: 'read-only', key: 'read-only-key-0123456789', scopes: ['read:walls', 'read:posts'] };
const EVERYTHING: ProxyKeyConfig = { name: 'admin', key: 'admin-key-0123456789', scopes: ['*'] };

/** As `curl --path-as-is`: fetch and inject would resolve the dot segments before sending. */
function rawRequest(base: string, method: string, path: string, key: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(base);
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const req = httpRequest({ host: target.hostname, port: target.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('proxy paths that would leave the API root', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const start = async (): Promise<{ h: Harness; base: string }> => {
    harness = await startHarness({ keys: [READ_ONLY, EVERYTHING], mode: 'connected' });
    return { h: harness, base: await harness.app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  const userCount = async (h: Harness): Promise<number> => {
    const answer = await h.api.request({ method: 'GET', path: '/users', query: { per_page: 1 } });
    return (answer.body as { meta: { total: number } }).meta.total;
  };
  const sandboxNow = async (h: Harness): Promise<number> => ((await h.control('GET', '/_sandbox/clock')) as { epoch_ms: number }).epoch_ms;

  it('refuses a proxy path that leaves the API root through backslashes, naming path, and the platform host is not reached', async () => {
    const { h, base } = await start();
    const res = await rawRequest(base, 'GET', '/api/open/v1/walls/..\\..\\..\\..\\_sandbox\\clock', READ_ONLY.key);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_input', details: { field: 'path' }, message: expect.stringMatching(/^path: .*backslash/) });
    expect(res.body).not.toContain('epoch_ms');
    expect(await h.platformRequests()).toEqual([]);
  });

  it('refuses a backslash path to the sandbox reset through /incoming (which needs no scope): the users stay', async () => {
    const { h, base } = await start();
    const before = await userCount(h);
    expect(before).toBeGreaterThan(3);
    for (const path of [
      '/api/open/v1/incoming/..\\..\\..\\..\\_sandbox\\reset',
      '/api/open/v1/incoming/..%5c..%5c..%5c..%5c_sandbox%5creset',
      '/api/open/v1/incoming/%2e%2e%5C%2E%2e%5c..%5c..%5c_sandbox%5Creset',
    ]) {
      const res = await rawRequest(base, 'POST', path, READ_ONLY.key, '{"seed":"empty"}');
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toMatchObject({ error: 'invalid_input', details: { field: 'path' } });
    }
    expect(await userCount(h)).toBe(before);
  });

  it('refuses a backslash path to the sandbox clock even for a key holding every scope: the clock does not move', async () => {
    const { h, base } = await start();
    const before = await sandboxNow(h);
    for (const path of ['/api/open/v1/walls/..\\..\\..\\..\\_sandbox\\clock', '/api/open/v1/walls/..%255c..%255c..%255c..%255c_sandbox%255cclock']) {
      const res = await rawRequest(base, 'POST', path, EVERYTHING.key, '{"advance_seconds":86400}');
      expect(res.status, path).toBe(400);
    }
    // the clock runs on (not frozen): a forwarded call would have moved it a whole day
    expect((await sandboxNow(h)) - before).toBeLessThan(60_000);
  });

  it('audits a refused path as asked, with only an incoming-webhook token redacted', async () => {
    const { h, base } = await start();
    await rawRequest(base, 'POST', '/api/open/v1/incoming/..\\..\\..\\..\\_sandbox\\reset', READ_ONLY.key, '{}');
    await rawRequest(base, 'POST', '/api/open/v1/incoming/SeCrEtToKeN\\..\\..\\_sandbox\\reset?x=1', READ_ONLY.key, '{}');
    const audit = h.lines.filter((line) => line.audit === 'proxy');
    expect(audit.map((line) => [line.path, line.status, line.answered_by])).toEqual([
      ['/incoming/..\\..\\..\\..\\_sandbox\\reset', 400, 'proxy'],
      ['/incoming/[redacted]\\..\\..\\_sandbox\\reset', 400, 'proxy'],
    ]);
    expect(JSON.stringify(h.lines)).not.toContain('SeCrEtToKeN');
  });

  it('still forwards an ordinary path, with dots inside segments and an encoded character', async () => {
    const { h, base } = await start();
    const res = await rawRequest(base, 'GET', '/api/open/v1/walls/1/posts?per_page=1', READ_ONLY.key);
    expect(res.status).toBe(200);
    const odd = await rawRequest(base, 'GET', '/api/open/v1/walls/1...%41', READ_ONLY.key);
    expect(odd.status).toBe(404);
    expect((await h.platformRequests()).map((r) => r.path)).toEqual(['/api/open/v1/walls/1/posts?per_page=1', '/api/open/v1/walls/1...%41']);
  });
});
