import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import type { SandboxModule } from '../../src/sandbox/module';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { notFound } from '../../src/sandbox/http/sandbox-error';

const probe: SandboxModule = {
  name: 'probe',
  api(router) {
    router.route('GET', '/walls', 'read:walls', () => ({ data: [] }));
    router.route('GET', '/walls/{id}', 'read:walls', () => {
      throw notFound();
    });
  },
};

function build(start = Date.UTC(2026, 10, 22, 8)) {
  const clock = new AdjustableClock({ start, frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, [probe]);
  sandbox.reset({ seed: 'empty' });
  return { ...sandbox, ctx, clock };
}

const auth = { authorization: 'Bearer svc_sandbox_token' };

describe('sandbox core', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('answers 401 unauthorized for a missing or unknown token (spec: Errors)', async () => {
    const { app } = build();
    close = () => app.close();
    const missing = await app.inject({ method: 'GET', url: '/api/open/v1/walls' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'unauthorized' });
    const unknown = await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { authorization: 'Bearer svc_nope' } });
    expect(unknown.statusCode).toBe(401);
  });

  it('answers 403 forbidden naming the scope the token lacks (spec: Errors)', async () => {
    const { app } = build();
    close = () => app.close();
    const created = await app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'narrow', scopes: ['read:posts'] } });
    const { token } = created.json() as { token: string };
    expect(token.startsWith('svc_')).toBe(true);
    const res = await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('read:walls') });
  });

  it('rejects an expired token with 401 once the clock passes its expiry (spec: Authentication 3)', async () => {
    const { app, clock } = build();
    close = () => app.close();
    const created = await app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'short', scopes: ['read:walls'], expires_at: '2026-11-22T10:00:00+01:00' } });
    const headers = { authorization: `Bearer ${(created.json() as { token: string }).token}` };
    expect((await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers })).statusCode).toBe(200);
    clock.advance(2 * 3_600_000);
    expect((await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers })).statusCode).toBe(401);
  });

  it('answers 404 with no body for an unknown id (spec: Errors)', async () => {
    const { app } = build();
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/api/open/v1/walls/999', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });

  it('limits a token to 60 requests a minute with rate-limit headers and Retry-After (spec: Limits)', async () => {
    const { app, clock } = build();
    close = () => app.close();
    let last = await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth });
    expect(last.headers['x-ratelimit-limit']).toBe('60');
    expect(last.headers['x-ratelimit-remaining']).toBe('59');
    for (let i = 1; i < 60; i++) last = await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth });
    expect(last.statusCode).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const limited = await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(60_000);
    expect((await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth })).statusCode).toBe(200);
  });

  it('injects a fault for a path pattern a given number of times, then recovers', async () => {
    const { app } = build();
    close = () => app.close();
    await app.inject({ method: 'POST', url: '/_sandbox/faults', payload: { path: '/api/open/v1/walls', status: 503, count: 2 } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth })).statusCode);
    expect(codes).toEqual([503, 503, 200]);
  });

  it('moves the clock through the control API and reports the new time', async () => {
    const { app, ctx } = build(Date.UTC(2026, 10, 22, 8));
    close = () => app.close();
    const res = await app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 3600 } });
    expect(res.json()).toMatchObject({ now: '2026-11-22T10:00:00+01:00' });
    expect(ctx.now()).toBe(Date.UTC(2026, 10, 22, 9));
  });

  it('keeps bearer tokens out of the request log', async () => {
    const { app } = build();
    close = () => app.close();
    await app.inject({ method: 'GET', url: '/api/open/v1/walls', headers: auth });
    const log = await app.inject({ method: 'GET', url: '/_sandbox/requests' });
    expect(log.body).not.toContain('svc_sandbox_token');
    expect((log.json() as { data: unknown[] }).data).toHaveLength(1);
  });

  it('answers 501 saying so for an endpoint of the spec that no module implements, never a fake 200', async () => {
    const { app } = build();
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/api/open/v1/announcements', headers: auth });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ error: 'not_implemented', message: expect.stringContaining('GET /announcements') });
  });

  it('lists every endpoint of the spec in the coverage report with its status', async () => {
    const { app } = build();
    close = () => app.close();
    const { data } = (await app.inject({ method: 'GET', url: '/_sandbox/coverage' })).json() as { data: { method: string; path: string; status: string }[] };
    expect(data).toContainEqual({ method: 'GET', path: '/walls', status: 'implemented' });
    expect(data).toContainEqual({ method: 'POST', path: '/achievements/{id}/awards', status: 'not_implemented' });
    expect(data.length).toBeGreaterThan(80);
  });

  it('marks an implemented endpoint with a known gap as partial, saying what is missing', async () => {
    const ctx = new SandboxContext(new SandboxDb(), new AdjustableClock({ frozen: true }));
    const full = buildSandboxApp(ctx, SANDBOX_MODULES);
    close = () => full.app.close();
    const { data } = (await full.app.inject({ method: 'GET', url: '/_sandbox/coverage' })).json() as { data: { method: string; path: string; status: string; missing?: string }[] };
    expect(data.find((e) => e.path === '/stats/engagement')).toMatchObject({ status: 'partial', missing: expect.stringContaining('history') });
    expect(data.filter((e) => e.status === 'not_implemented')).toEqual([]);
  });
});
