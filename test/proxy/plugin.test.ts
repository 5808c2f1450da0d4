import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyKeyConfig } from '../../src/proxy/proxy-keys';
import { SANDBOX_KEY, startHarness, type Harness } from './proxy-harness';

const READER: ProxyKeyConfig = { name: 'dashboards', key: 'reader-key-0123456789', scopes: ['read:walls', 'read:posts'] };
const POSTER: ProxyKeyConfig = { name: 'poster', key: 'poster-key-0123456789', scopes: ['read:walls', 'write:posts'] };
const ACME_ONLY: ProxyKeyConfig = { name: 'acme-script', key: 'acme-key-01234567890', scopes: ['*'], tenants: ['acme'] };

const json = { 'content-type': 'application/json' };

describe('the API proxy against a sandbox over HTTP', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('passes a list through and rewrites its pagination links to the proxy (spec: Pagination)', async () => {
    harness = await startHarness();
    const res = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls?per_page=2', headers: { ...SANDBOX_KEY, host: 'intrabot.test:3000' } });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { id: number }[]; links: Record<string, string | null>; meta: { total: number } }>();
    expect(body.data).toHaveLength(2);
    expect(body.links.next).toBe('http://intrabot.test:3000/api/open/v1/walls?per_page=2&page=2');
    expect(body.links.first).toBe('http://intrabot.test:3000/api/open/v1/walls?per_page=2&page=1');
    expect(body.links.prev).toBeNull();
    expect(JSON.stringify(body)).not.toContain(harness.sandbox.baseUrl);
    // following the rewritten link through the proxy gives the second page
    const next = await harness.app.inject({
      method: 'GET',
      url: new URL(body.links.next as string).pathname + new URL(body.links.next as string).search,
      headers: SANDBOX_KEY,
    });
    expect(next.json<{ meta: { current_page: number } }>().meta.current_page).toBe(2);
  });

  it('passes a write through and answers with the platform status and body', async () => {
    harness = await startHarness();
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { ...SANDBOX_KEY, ...json },
      payload: '{"body":"Hello through the proxy"}',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: { id: number; body: string } }>().data;
    expect(created.body).toBe('Hello through the proxy');
    const readBack = await harness.api.request({ method: 'GET', path: `/walls/1/posts/${created.id}` });
    expect((readBack.body as { data: { body: string } }).data.body).toBe('Hello through the proxy');
  });

  it("passes the platform's 422 through unchanged (spec: Errors)", async () => {
    harness = await startHarness();
    const res = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls/1/posts?status=bogus', headers: SANDBOX_KEY });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'validation_error', message: expect.stringContaining('status') });
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  it('passes a 204 delete and a 404 without body through', async () => {
    harness = await startHarness();
    const created = await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { ...SANDBOX_KEY, ...json },
      payload: '{"body":"short-lived"}',
    });
    const id = created.json<{ data: { id: number } }>().data.id;
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/api/open/v1/walls/1/posts/${id}`, headers: SANDBOX_KEY });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await harness.app.inject({ method: 'GET', url: `/api/open/v1/walls/1/posts/${id}`, headers: SANDBOX_KEY });
    expect(gone.statusCode).toBe(404);
  });

  it('answers 401 for a missing or wrong key without calling the platform', async () => {
    harness = await startHarness();
    const missing = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls' });
    const wrong = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { authorization: 'Bearer not-a-key' } });
    const platformToken = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { authorization: `Bearer ${harness.sandbox.token}` } });
    for (const res of [missing, wrong, platformToken]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized' });
    }
    expect(await harness.platformRequests()).toEqual([]);
  });

  it('accepts the key in X-Proxy-Key as well as in Authorization', async () => {
    harness = await startHarness();
    const res = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls/1', headers: { 'x-proxy-key': 'sandbox-proxy-key' } });
    expect(res.statusCode).toBe(200);
  });

  it('answers 403 naming the scope the key lacks, and the platform is not called', async () => {
    harness = await startHarness({ keys: [READER] });
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { 'x-proxy-key': READER.key, ...json },
      payload: '{"body":"nope"}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('write:posts'), details: { missing_scopes: ['write:posts'] } });
    expect(await harness.platformRequests()).toEqual([]);
  });

  it('needs write:media for a post that carries media_ids (spec: Posts)', async () => {
    harness = await startHarness({ keys: [POSTER] });
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { 'x-proxy-key': POSTER.key, ...json },
      payload: '{"body":"x","media_ids":[1]}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ details: { missing_scopes: ['write:media'] } });
    expect(await harness.platformRequests()).toEqual([]);
  });

  it('refuses a path whose scope is unknown unless the key holds every scope', async () => {
    const everything: ProxyKeyConfig = { name: 'admin', key: 'admin-key-0123456789', scopes: ['*'] };
    harness = await startHarness({ keys: [READER, everything], mode: 'connected' });
    const refused = await harness.app.inject({ method: 'GET', url: '/api/open/v1/not-in-the-catalogue', headers: { 'x-proxy-key': READER.key } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toContain('unknown');
    expect(await harness.platformRequests()).toEqual([]);
    const passed = await harness.app.inject({ method: 'GET', url: '/api/open/v1/not-in-the-catalogue', headers: { 'x-proxy-key': everything.key } });
    expect(passed.statusCode).toBe(404);
    expect((await harness.platformRequests()).map((r) => r.path)).toEqual(['/api/open/v1/not-in-the-catalogue']);
  });

  it('serves another tenant under /t/:tenant with its own token and keeps the prefix in links', async () => {
    harness = await startHarness({ secondTenantScopes: ['read:walls'] });
    const res = await harness.app.inject({ method: 'GET', url: '/t/acme/api/open/v1/walls?per_page=1', headers: { ...SANDBOX_KEY, host: 'intrabot.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ links: { next: string } }>().links.next).toBe('http://intrabot.test/t/acme/api/open/v1/walls?per_page=1&page=2');
    // acme's token lacks read:users: the platform's own 403 comes back unchanged
    const users = await harness.app.inject({ method: 'GET', url: '/t/acme/api/open/v1/users', headers: SANDBOX_KEY });
    expect(users.statusCode).toBe(403);
    expect(users.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('read:users') });
    const seen = await harness.platformRequests();
    expect(seen.map((r) => [r.path, r.status])).toEqual([
      ['/api/open/v1/walls?per_page=1', 200],
      ['/api/open/v1/users', 403],
    ]);
  });

  it('answers 403 for a key limited to other tenants, and 404 for an unknown tenant', async () => {
    harness = await startHarness({ keys: [ACME_ONLY], secondTenantScopes: ['read:walls'] });
    const other = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { 'x-proxy-key': ACME_ONLY.key } });
    expect(other.statusCode).toBe(403);
    expect(other.json<{ message: string }>().message).toContain('sandbox');
    const own = await harness.app.inject({ method: 'GET', url: '/t/acme/api/open/v1/walls', headers: { 'x-proxy-key': ACME_ONLY.key } });
    expect(own.statusCode).toBe(200);
    const unknown = await harness.app.inject({ method: 'GET', url: '/t/nobody/api/open/v1/walls', headers: { 'x-proxy-key': ACME_ONLY.key } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'unknown_tenant' });
  });

  it('has no sandbox key in connected mode, and is off until a key is configured', async () => {
    harness = await startHarness({ mode: 'connected' });
    const res = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: SANDBOX_KEY });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('proxy.keys');
    await harness.close();
    harness = await startHarness({ mode: 'connected', keys: [READER] });
    const withKeys = await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: SANDBOX_KEY });
    expect(withKeys.statusCode).toBe(401);
    expect(await harness.platformRequests()).toEqual([]);
  });

  it('writes one audit line per call with key name, method, path, status and duration, and no secret', async () => {
    harness = await startHarness({ keys: [READER] });
    await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls?per_page=1&secret=abc', headers: { authorization: `Bearer ${READER.key}` } });
    await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { 'x-proxy-key': READER.key, ...json },
      payload: '{"body":"private words"}',
    });
    await harness.app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { authorization: 'Bearer wrong-key-value' } });
    expect(harness.lines).toHaveLength(3);
    expect(harness.lines[0]).toMatchObject({
      key: 'dashboards',
      method: 'GET',
      path: '/walls',
      status: 200,
      answered_by: 'platform',
      duration_ms: expect.any(Number),
    });
    expect(harness.lines[1]).toMatchObject({ key: 'dashboards', method: 'POST', path: '/walls/1/posts', status: 403, answered_by: 'proxy' });
    expect(harness.lines[2]).toMatchObject({ key: null, status: 401 });
    const text = JSON.stringify(harness.lines);
    for (const secret of [READER.key, harness.sandbox.token, 'wrong-key-value', 'private words', 'abc']) expect(text).not.toContain(secret);
  });

  it('redacts an incoming-webhook URL token from the audit line', async () => {
    harness = await startHarness();
    await harness.app.inject({ method: 'POST', url: '/api/open/v1/incoming/tok_secret_value', headers: { ...SANDBOX_KEY, ...json }, payload: '{"text":"hi"}' });
    expect(harness.lines).toHaveLength(1);
    expect(harness.lines[0]?.path).toBe('/incoming/[redacted]');
    expect(JSON.stringify(harness.lines)).not.toContain('tok_secret_value');
  });

  it('answers 413 for a buffered body over the limit without calling the platform', async () => {
    harness = await startHarness({ bodyLimit: 64 });
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/open/v1/walls/1/posts',
      headers: { ...SANDBOX_KEY, ...json },
      payload: JSON.stringify({ body: 'x'.repeat(200) }),
    });
    expect(res.statusCode).toBe(413);
    expect(await harness.platformRequests()).toEqual([]);
  });
});

/** A raw HTTP request: fetch and inject would resolve the dot segments before sending. */
function rawRequest(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(base);
    const req = httpRequest({ host: target.hostname, port: target.port, path, method: 'POST', headers: { ...SANDBOX_KEY, ...json } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('paths that would leave the API root', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it.each(['/api/open/v1/walls/../../../_sandbox/reset', '/api/open/v1/%2e%2e/%2E%2E/_sandbox/requests', '/api/open/v1/./walls'])(
    'refuses %s without calling the platform',
    async (path) => {
      harness = await startHarness();
      const base = await harness.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await rawRequest(base, path);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_input', details: { field: 'path' } });
      expect(await harness.platformRequests()).toEqual([]);
    },
  );
});
