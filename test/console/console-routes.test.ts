import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleApp, deliveryRow, fakeDeps, SECRET } from './fake-console';

const ADMIN = 'admin-token-for-console-tests';
const CHANGE = { 'x-intrabot-console': '1' };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the console in sandbox mode', () => {
  it('serves the page and its data to loopback callers without a token', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    const page = await app.inject({ method: 'GET', url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<script type="importmap">');
    const session = await app.inject({ method: 'GET', url: '/console/api/session' });
    expect(session.json()).toEqual({ mode: 'sandbox', tokenRequired: false, off: false, signedIn: true });
    const deliveries = await app.inject({ method: 'GET', url: '/console/api/deliveries' });
    expect(deliveries.statusCode).toBe(200);
    expect(deliveries.json().rows[0].deliveryId).toBe('d-1');
    expect(deliveries.headers['cache-control']).toBe('no-store');
  });

  it('answers loopback callers only, the page included', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    for (const url of ['/console/', '/console/app.mjs', '/console/api/deliveries', '/console/api/session']) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: '10.1.2.3' });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toContain('loopback');
    }
  });

  it('refuses a request addressed to another name, so a rebinding page cannot read it through a browser', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    const rebound = await app.inject({ method: 'GET', url: '/console/api/deliveries', headers: { host: 'attacker.example:3000' } });
    expect(rebound.statusCode).toBe(403);
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'localhost']) {
      expect((await app.inject({ method: 'GET', url: '/console/api/deliveries', headers: { host } })).statusCode, host).toBe(200);
    }
  });

  it("takes requests addressed to INTRABOT_PUBLIC_URL's host (a TLS proxy on this machine), and no other name", async () => {
    app = await consoleApp({ ...fakeDeps('sandbox', undefined).deps, publicUrl: 'https://bots.example.com' });
    expect((await app.inject({ method: 'GET', url: '/console/api/deliveries', headers: { host: 'bots.example.com' } })).statusCode).toBe(200);
    const other = await app.inject({ method: 'GET', url: '/console/', headers: { host: 'evil.example' } });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ error: 'foreign_host', message: expect.stringContaining('bots.example.com') });
  });

  it("takes a change only with the console's header and from its own origin (no cross-site request forgery)", async () => {
    const { deps, state } = fakeDeps('sandbox', undefined);
    app = await consoleApp(deps);
    const url = '/console/api/deliveries/e-1/replay';
    const bare = await app.inject({ method: 'POST', url });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().message).toContain('x-intrabot-console');
    const foreign = await app.inject({ method: 'POST', url, headers: { ...CHANGE, origin: 'http://attacker.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toBe('foreign_origin');
    expect(state.replayed).toEqual([]);
    const own = await app.inject({ method: 'POST', url, headers: { ...CHANGE, origin: 'http://localhost:80' } });
    expect(own.statusCode).toBe(200);
    expect(state.replayed).toEqual(['e-1']);
  });

  it('replays a dead delivery, and says so when there is no such entry', async () => {
    const { deps, state } = fakeDeps('sandbox', undefined);
    app = await consoleApp(deps);
    expect((await app.inject({ method: 'POST', url: '/console/api/deliveries/e-1/replay', headers: CHANGE })).json()).toEqual({ ok: true, id: 'e-1' });
    const missing = await app.inject({ method: 'POST', url: '/console/api/deliveries/nope/replay', headers: CHANGE });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('nope') });
    expect(state.replayed).toEqual(['e-1']);
  });

  it('retries and drops an outbox entry, and says so when there is no such entry', async () => {
    const { deps, state } = fakeDeps('sandbox', undefined);
    app = await consoleApp(deps);
    expect((await app.inject({ method: 'POST', url: '/console/api/outbox/o-1/retry', headers: CHANGE })).json()).toEqual({ ok: true, id: 'o-1' });
    expect((await app.inject({ method: 'POST', url: '/console/api/outbox/o-1/drop', headers: CHANGE })).json()).toEqual({ ok: true, id: 'o-1' });
    const missing = await app.inject({ method: 'POST', url: '/console/api/outbox/o-2/drop', headers: CHANGE });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('o-2');
    expect((await app.inject({ method: 'POST', url: '/console/api/outbox/o-1/drop' })).statusCode).toBe(403);
    expect(state.outboxDone).toEqual(['retry o-1', 'drop o-1']);
  });

  it('starts a scheduled job (202) and refuses one no schedule has (404)', async () => {
    const { deps, state } = fakeDeps('sandbox', undefined);
    app = await consoleApp(deps);
    const run = await app.inject({ method: 'POST', url: '/console/api/jobs/sandbox/birthday/greet/run', headers: CHANGE });
    expect(run.statusCode).toBe(202);
    expect(run.json()).toEqual({ started: true, tenant: 'sandbox', bot: 'birthday', job: 'greet' });
    expect((await app.inject({ method: 'POST', url: '/console/api/jobs/sandbox/birthday/nope/run', headers: CHANGE })).statusCode).toBe(404);
    expect(state.ran).toEqual(['sandbox/birthday/greet']);
  });

  it('refuses a bad query naming the field, and changes nothing', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    const zero = await app.inject({ method: 'GET', url: '/console/api/deliveries?limit=0' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toMatchObject({ error: 'invalid_input', details: { field: 'query.limit' } });
    const unknown = await app.inject({ method: 'GET', url: '/console/api/outbox?state=dead' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('state');
    const status = await app.inject({ method: 'GET', url: '/console/api/deliveries?status=lost' });
    expect(status.json().details.field).toBe('query.status');
  });

  it('scrubs a configured secret from any answer, even one a view carried by mistake', async () => {
    const { deps, state } = fakeDeps('sandbox', undefined);
    state.leak = `could not reach https://platform.example/api/open/v1/incoming/${encodeURIComponent(SECRET)} with "${SECRET}"`;
    app = await consoleApp(deps);
    const bots = await app.inject({ method: 'GET', url: '/console/api/bots' });
    expect(bots.body).not.toContain(SECRET);
    expect(bots.body).not.toContain(encodeURIComponent(SECRET));
    expect(bots.json().failed[0].error).toContain('[redacted]');
  });
});

describe('the console outside sandbox mode', () => {
  it('is off while no admin token is configured, and says how to turn it on', async () => {
    app = await consoleApp(fakeDeps('connected', undefined).deps);
    const data = await app.inject({ method: 'GET', url: '/console/api/deliveries' });
    expect(data.statusCode).toBe(403);
    expect(data.json().message).toContain('INTRABOT_ADMIN_TOKEN');
    expect((await app.inject({ method: 'GET', url: '/console/api/session' })).json()).toMatchObject({ off: true, signedIn: false });
    const signIn = await app.inject({ method: 'POST', url: '/console/api/session', headers: CHANGE, payload: { token: 'anything' } });
    expect(signIn.statusCode).toBe(403);
  });

  it('answers the data with the admin token as a bearer token, and refuses a missing or wrong one without echoing it', async () => {
    app = await consoleApp(fakeDeps('connected', ADMIN).deps);
    const missing = await app.inject({ method: 'GET', url: '/console/api/deliveries' });
    const wrong = await app.inject({ method: 'GET', url: '/console/api/deliveries', headers: { authorization: `Bearer ${ADMIN}x` } });
    expect([missing.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(wrong.body).not.toContain(ADMIN);
    const right = await app.inject({ method: 'GET', url: '/console/api/deliveries', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(right.statusCode).toBe(200);
    // a script with the token needs no browser header for a change
    const replay = await app.inject({ method: 'POST', url: '/console/api/deliveries/e-1/replay', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(replay.statusCode).toBe(200);
  });

  it('exchanges the admin token for an HttpOnly, SameSite=Strict session cookie that the data routes take', async () => {
    app = await consoleApp(fakeDeps('connected', ADMIN).deps);
    expect((await app.inject({ method: 'GET', url: '/console/api/session' })).json()).toMatchObject({ tokenRequired: true, signedIn: false });
    const signIn = await app.inject({ method: 'POST', url: '/console/api/session', headers: CHANGE, payload: { token: ADMIN } });
    expect(signIn.statusCode).toBe(200);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/^intrabot_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain(ADMIN);
    expect(signIn.body).not.toContain(ADMIN);
    const session = cookie.split(';')[0]!;
    expect((await app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: session } })).json().signedIn).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/console/api/jobs', headers: { cookie: session } })).statusCode).toBe(200);
    // a change by cookie needs the console's header too
    expect((await app.inject({ method: 'POST', url: '/console/api/deliveries/e-1/replay', headers: { cookie: session } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/console/api/deliveries/e-1/replay', headers: { cookie: session, ...CHANGE } })).statusCode).toBe(200);
  });

  it('ends a session at sign-out, and after an hour without use', async () => {
    const { deps, clock } = fakeDeps('connected', ADMIN);
    app = await consoleApp(deps);
    const signIn = async (): Promise<string> =>
      String((await app!.inject({ method: 'POST', url: '/console/api/session', headers: CHANGE, payload: { token: ADMIN } })).headers['set-cookie']).split(
        ';',
      )[0]!;
    const jobs = async (cookie: string): Promise<number> => (await app!.inject({ method: 'GET', url: '/console/api/jobs', headers: { cookie } })).statusCode;
    const first = await signIn();
    const out = await app.inject({ method: 'DELETE', url: '/console/api/session', headers: { cookie: first, ...CHANGE } });
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect(await jobs(first)).toBe(401);
    const second = await signIn();
    clock.advance(59 * 60_000);
    expect(await jobs(second)).toBe(200);
    clock.advance(61 * 60_000);
    expect(await jobs(second)).toBe(401);
  });

  it('refuses a wrong token at sign-in, and every attempt for a minute after five wrong ones', async () => {
    const { deps, clock } = fakeDeps('connected', ADMIN);
    app = await consoleApp(deps);
    const attempt = (token: string) => app!.inject({ method: 'POST', url: '/console/api/session', headers: CHANGE, payload: { token } });
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}`)).statusCode).toBe(401);
    const throttled = await attempt(ADMIN);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error).toBe('too_many_attempts');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(60_000);
    expect((await attempt(ADMIN)).statusCode).toBe(200);
  });

  it('refuses a sign-in without a token, naming the field', async () => {
    app = await consoleApp(fakeDeps('connected', ADMIN).deps);
    const res = await app.inject({ method: 'POST', url: '/console/api/session', headers: CHANGE, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.field).toBe('body.token');
  });

  it('serves the page itself without a token: it holds no data', async () => {
    app = await consoleApp(fakeDeps('connected', ADMIN).deps);
    expect((await app.inject({ method: 'GET', url: '/console/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/console/vendor/preact.mjs' })).statusCode).toBe(200);
  });
});

describe('the console page', () => {
  it('allows scripts from its own origin and its import map only (by hash), and no framing', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    const page = await app.inject({ method: 'GET', url: '/console/' });
    const csp = String(page.headers['content-security-policy']);
    const map = /<script type="importmap">(.*?)<\/script>/.exec(page.body)?.[1] ?? '';
    expect(JSON.parse(map).imports).toEqual({
      preact: './vendor/preact.mjs',
      'preact/hooks': './vendor/preact-hooks.mjs',
      htm: './vendor/htm.mjs',
    });
    expect(csp).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(map).digest('base64')}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves its modules and the vendored packages from the installed package, and answers 304 to a known version', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    for (const url of [
      '/console/app.mjs',
      '/console/intrabot.css',
      '/console/vendor/preact.mjs',
      '/console/vendor/preact-hooks.mjs',
      '/console/vendor/htm.mjs',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('sourceMappingURL');
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode, url).toBe(304);
    }
    expect((await app.inject({ method: 'GET', url: '/console/../package.json' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/console' })).headers.location).toBe('console/');
  });
});

describe("the console under a host app's prefix", () => {
  it('serves the page, its data and its session cookie under the prefix (the page asks for everything relative to itself)', async () => {
    const Fastify = (await import('fastify')).default;
    const { registerConsole } = await import('../../src/console/console-plugin');
    app = Fastify();
    await app.register(async (scope) => registerConsole(scope, fakeDeps('connected', ADMIN).deps), { prefix: '/ops' });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/ops/console' })).headers.location).toBe('console/');
    const page = await app.inject({ method: 'GET', url: '/ops/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('src="app.mjs"');
    expect((await app.inject({ method: 'GET', url: '/ops/console/vendor/htm.mjs' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/ops/console/api/session' })).json()).toMatchObject({ tokenRequired: true, signedIn: false });
    const signIn = await app.inject({ method: 'POST', url: '/ops/console/api/session', headers: CHANGE, payload: { token: ADMIN } });
    expect(String(signIn.headers['set-cookie'])).toContain('; Path=/ops/console;');
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    expect((await app.inject({ method: 'GET', url: '/ops/console/api/jobs', headers: { cookie } })).statusCode).toBe(200);
  });
});

describe('the live stream', () => {
  it('sends every section at once, then only the sections whose data changed, and the clock', async () => {
    const { AdjustableClock } = await import('../../src/clock');
    const { deps, state } = fakeDeps('sandbox', undefined, new AdjustableClock());
    app = await consoleApp(deps, 30);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const res = await fetch(`${url}/console/api/stream`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = readEvents(res.body!);
    const first = await events.until((all) => all.filter((e) => e.event === 'section').length >= 7);
    expect(new Set(first.filter((e) => e.event === 'section').map((e) => (JSON.parse(e.data) as { section: string }).section))).toEqual(
      new Set(['bots', 'deliveries', 'outbox', 'rate', 'jobs', 'alerts', 'audit']),
    );
    await events.until((all) => all.filter((e) => e.event === 'clock').length >= 3);
    // unchanged data is not sent again, whatever its `now`
    expect(events.all.filter((e) => e.event === 'section')).toHaveLength(7);
    state.deliveries.push(deliveryRow({ deliveryId: 'd-2', entryId: 'e-2', status: 'handled' }));
    const after = await events.until((all) => all.filter((e) => e.event === 'section').length >= 8);
    expect(JSON.parse(after.filter((e) => e.event === 'section').at(-1)!.data)).toMatchObject({
      section: 'deliveries',
      data: { rows: [{ deliveryId: 'd-1' }, { deliveryId: 'd-2' }] },
    });
    controller.abort();
  });

  it('ends a stream whose session was signed out', async () => {
    const { AdjustableClock } = await import('../../src/clock');
    const { deps } = fakeDeps('connected', ADMIN, new AdjustableClock());
    app = await consoleApp(deps, 30);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const signIn = await fetch(`${url}/console/api/session`, {
      method: 'POST',
      headers: { ...CHANGE, 'content-type': 'application/json' },
      body: JSON.stringify({ token: ADMIN }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const res = await fetch(`${url}/console/api/stream`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const events = readEvents(res.body!);
    await events.until((all) => all.some((e) => e.event === 'clock'));
    await fetch(`${url}/console/api/session`, { method: 'DELETE', headers: { ...CHANGE, cookie } });
    await events.until((all) => all.some((e) => e.event === 'signed-out'));
    await events.ended;
    expect((await fetch(`${url}/console/api/stream`, { headers: { cookie } })).status).toBe(401);
  });
});

describe('a session with the console open', () => {
  it('stays signed in while a live stream is open, though no other request comes', async () => {
    const { AdjustableClock } = await import('../../src/clock');
    const clock = new AdjustableClock();
    const { deps } = fakeDeps('connected', ADMIN, clock);
    app = await consoleApp(deps, 30);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const signIn = await fetch(`${url}/console/api/session`, {
      method: 'POST',
      headers: { ...CHANGE, 'content-type': 'application/json' },
      body: JSON.stringify({ token: ADMIN }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const controller = new AbortController();
    const events = readEvents((await fetch(`${url}/console/api/stream`, { headers: { cookie }, signal: controller.signal })).body!);
    for (let i = 1; i <= 2; i++) {
      const seen = events.all.length;
      clock.advance(50 * 60_000);
      await events.until((all) => all.slice(seen).filter((e) => e.event === 'clock').length >= 2);
    }
    expect(events.all.some((e) => e.event === 'signed-out')).toBe(false);
    expect((await fetch(`${url}/console/api/jobs`, { headers: { cookie } })).status).toBe(200);
    controller.abort();
  });
});

interface SseEvent {
  event: string;
  data: string;
}

/** Reads server-sent events as they come; `until` waits for a condition on everything read so far. */
function readEvents(body: ReadableStream<Uint8Array>) {
  const all: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) all.push({ event, data });
        }
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // aborted by the test
    } finally {
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    all,
    ended,
    async until(condition: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
      while (!condition(all)) {
        if (finished) throw new Error(`the stream ended before the condition held; read: ${all.map((e) => e.event).join(', ')}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return all;
    },
  };
}
