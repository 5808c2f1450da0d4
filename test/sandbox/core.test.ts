import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiServerError, ApiUnauthorizedError } from '../../src/api/errors';
import type { SandboxModule } from '../../src/sandbox/module';
import { notFound } from '../../src/sandbox/http/sandbox-error';
import { failure, useHttpSandbox } from './http-harness';

const probe: SandboxModule = {
  name: 'probe',
  api(router) {
    router.route('GET', '/walls', 'read:walls', () => ({
      data: [],
      links: { first: null, last: null, prev: null, next: null },
      meta: { current_page: 1, from: null, last_page: 1, per_page: 25, to: null, total: 0 },
    }));
    router.route('GET', '/walls/{id}', 'read:walls', () => {
      throw notFound();
    });
  },
};

describe('sandbox core', () => {
  const h = useHttpSandbox({ seed: 'empty', modules: [probe] });

  it('answers 401 unauthorized for a missing or unknown token (spec: Errors)', async () => {
    // the client never sends a request without a token: the missing one goes over raw HTTP
    const missing = await h.raw('GET', '/walls', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'unauthorized' });
    const error = await failure(h.client('svc_nope').walls.list());
    expect(error).toBeInstanceOf(ApiUnauthorizedError);
    expect(error).toMatchObject({ platformStatus: 401 });
  });

  it('answers 403 forbidden naming the scope the token lacks (spec: Errors)', async () => {
    const token = await h.tokenWith(['read:posts']);
    expect(token.startsWith('svc_')).toBe(true);
    const error = await failure(h.client(token).walls.list());
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:walls', platformStatus: 403 });
  });

  it('rejects an expired token with 401 once the clock passes its expiry (spec: Authentication 3)', async () => {
    const api = await h.clientWith(['read:walls'], { expires_at: '2026-11-22T10:00:00+01:00' });
    await expect(api.walls.list()).resolves.toMatchObject({ data: [] });
    await h.control.advance(2 * 3_600);
    await expect(api.walls.list()).rejects.toBeInstanceOf(ApiUnauthorizedError);
  });

  it('answers 404 with no body for an unknown id (spec: Errors)', async () => {
    await expect(h.api.walls.get(999)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the client drops the body of a 404; that there is none is seen over raw HTTP
    const res = await h.raw('GET', '/walls/999');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });

  it('limits a token to 60 requests a minute with rate-limit headers and Retry-After (spec: Limits)', async () => {
    // headers and the 429 itself are what is checked, so no client (it would pace under the limit)
    await h.control.settings({ rate_limit_per_minute: 60 });
    let last = await h.raw('GET', '/walls');
    expect(last.headers['x-ratelimit-limit']).toBe('60');
    expect(last.headers['x-ratelimit-remaining']).toBe('59');
    expect(Number(last.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    for (let i = 1; i < 60; i++) last = await h.raw('GET', '/walls');
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const limited = await h.raw('GET', '/walls');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await h.control.advance(60);
    expect((await h.raw('GET', '/walls')).status).toBe(200);
  });

  it('changes only the settings a PUT sends: switching achievements off keeps the rate limit', async () => {
    await h.control.settings({ rate_limit_per_minute: 7, company_user: false });
    const after = await h.control.settings({ achievements_enabled: false });
    expect(after).toMatchObject({ rate_limit_per_minute: 7, company_user: false, achievements_enabled: false, timezone: 'Europe/Berlin' });
    expect(await h.control.send('GET', '/settings')).toEqual(after);
    expect((await h.raw('GET', '/walls')).headers['x-ratelimit-limit']).toBe('7');
  });

  it('refuses a settings PUT with a bad field, naming it, and changes nothing', async () => {
    const before = await h.control.send('GET', '/settings');
    for (const body of [{ timezone: 'Mars/Olympus_Mons' }, { achievements_enabled: false, rate_limit_per_minute: 0 }, { unknown_setting: 1 }]) {
      const res = await h.raw('PUT', '/_sandbox/settings', { body, token: null });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/^(timezone|rate_limit_per_minute|body)/);
    }
    expect(await h.control.send('GET', '/settings')).toEqual(before);
  });

  it('injects a fault for a path pattern a given number of times, then recovers', async () => {
    await h.control.send('POST', '/faults', { path: '/api/open/v1/walls', status: 503, count: 2 });
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        await h.api.walls.list().then(
          () => 'ok',
          (e: unknown) => (e instanceof ApiServerError ? `server ${e.platformStatus}` : String(e)),
        ),
      );
    }
    expect(outcomes).toEqual(['server 503', 'server 503', 'ok']);
  });

  it('moves the clock through the control API and reports the new time', async () => {
    const res = (await h.control.send('POST', '/clock', { advance_seconds: 3600 })) as { now: string };
    expect(res).toMatchObject({ now: '2026-11-22T10:00:00+01:00' });
    expect(await h.control.now()).toBe(Date.UTC(2026, 10, 22, 9));
  });

  it('puts the clock back to the real time on reset, wherever it was moved (the seed dates its content by it)', async () => {
    // the harness's clock is frozen, so it reads the real time it was set to, to the millisecond
    await h.control.advance(30 * 86_400);
    const before = Date.now();
    const answer = (await h.control.send('POST', '/reset', { seed: 'empty' })) as { now: string };
    const after = Date.now();
    const now = await h.control.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(after);
    expect(Date.parse(answer.now)).toBe(Math.floor(now / 1000) * 1000);
  });

  it('keeps bearer tokens out of the request log', async () => {
    await h.api.walls.list();
    const log = await h.raw('GET', '/_sandbox/requests', { token: null });
    expect(log.text).not.toContain(h.sandbox.token);
    expect(log.text).not.toContain('svc_');
    expect(log.json<{ data: unknown[] }>().data).toHaveLength(1);
  });

  it('answers 501 saying so for an endpoint of the spec that no module implements, never a fake 200', async () => {
    const error = await failure(h.api.announcements.list());
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ platformStatus: 501, message: expect.stringContaining('GET /announcements') });
    const res = await h.raw('GET', '/announcements');
    expect(res.json()).toMatchObject({ error: 'not_implemented', message: expect.stringContaining('GET /announcements') });
  });

  it('lists every endpoint of the spec in the coverage report with its status', async () => {
    const { data } = (await h.control.send('GET', '/coverage')) as { data: { method: string; path: string; status: string }[] };
    expect(data).toContainEqual({ method: 'GET', path: '/walls', status: 'implemented' });
    expect(data).toContainEqual({ method: 'POST', path: '/achievements/{id}/awards', status: 'not_implemented' });
    expect(data.length).toBeGreaterThan(80);
  });
});

describe('sandbox core with every module', () => {
  const h = useHttpSandbox();

  it('marks an implemented endpoint with a known gap as partial, saying what is missing', async () => {
    const { data } = (await h.control.send('GET', '/coverage')) as { data: { method: string; path: string; status: string; missing?: string }[] };
    expect(data.find((e) => e.path === '/stats/engagement')).toMatchObject({ status: 'partial', missing: expect.stringContaining('history') });
    expect(data.filter((e) => e.status === 'not_implemented')).toEqual([]);
  });

  it('seeds at the time a reset names with `now`, and refuses a `now` that is no date, changing nothing', async () => {
    await h.control.send('POST', '/reset', { seed: 'demo', now: '2027-03-01T08:30:00+01:00' });
    expect(await h.control.now()).toBe(Date.parse('2027-03-01T08:30:00+01:00'));
    // the demo seed puts two birthdays on its today
    const users = (await h.api.users.list({ per_page: 50 })).data;
    expect(users.filter((u) => u.date_of_birth?.endsWith('-03-01'))).toHaveLength(2);
    const created = await h.api.users.create({ email: 'march@sandbox.example', first_name: 'March', last_name: 'Hire' });
    expect(created).toMatchObject({ created_at: '2027-03-01T08:30:00+01:00', hired_at: '2027-03-01' });
    const bad = await h.raw('POST', '/_sandbox/reset', { body: { seed: 'empty', now: 'next tuesday' }, token: null });
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(/^now/);
    expect(await h.control.now()).toBe(Date.parse('2027-03-01T08:30:00+01:00'));
    await expect(h.api.users.get(created.id)).resolves.toMatchObject({ id: created.id });
  });
});
