import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_KEY, startHarness, type Harness } from './proxy-harness';

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 250; i += 1) {
    if (await check()) return;
    await delay(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the proxy shares the token budget with the bots (spec: Limits)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('paces proxy calls and a bot job through one limiter: both finish, no 429 reaches the platform', async () => {
    harness = await startHarness({ outboxBusy: async () => true });
    const h = harness;
    await h.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: 8 });
    // the proxy learns the token's limit (8, so its share is 4) from its first answer
    const first = await h.app.inject({ method: 'GET', url: '/api/open/v1/walls/1', headers: SANDBOX_KEY });
    expect(first.headers['x-ratelimit-limit']).toBe('4');

    const timers = h.clock.pendingTimers;
    let answered = 0;
    const counted = <T>(call: Promise<T>): Promise<T> => call.finally(() => (answered += 1));
    const botJob = Promise.all(Array.from({ length: 6 }, () => counted(h.api.request({ method: 'GET', path: '/walls/2' }))));
    const proxyCalls = Promise.all(
      Array.from({ length: 3 }, () => counted(h.app.inject({ method: 'GET', url: '/api/open/v1/walls/3', headers: SANDBOX_KEY }))),
    );

    // 10 requests under a budget of 8: the first 8 go, the others wait for the next window (each on a
    // timer of the clock, which nothing moves until the test does)
    await waitFor(async () => answered === 7 && h.clock.pendingTimers >= timers + 2, 'seven calls answered and two waiting on the clock');
    expect(await h.platformRequests()).toHaveLength(8);
    h.clock.advance(61_000);

    const [bot, proxy] = await Promise.all([botJob, proxyCalls]);
    expect(bot.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(proxy.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const seen = await h.platformRequests();
    expect(seen).toHaveLength(10);
    expect(seen.filter((r) => r.status === 429)).toEqual([]);
  });

  it('answers 429 from the proxy itself once its share is spent while the outbox is busy, without calling the platform', async () => {
    let busy = true;
    harness = await startHarness({ outboxBusy: async () => busy, botShare: 0.5 });
    const h = harness;
    await h.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: 8 });
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 6; i += 1) {
      const res = await h.app.inject({ method: 'GET', url: '/api/open/v1/walls/1', headers: SANDBOX_KEY });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    // the first answer teaches the limit of 8; half of it is the proxy's while the bots have work
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(refused?.json()).toMatchObject({ error: 'proxy_share_exceeded' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(refused?.headers['x-ratelimit-remaining']).toBe('0');
    expect(await h.platformRequests()).toHaveLength(4);
    expect(h.lines.at(-1)).toMatchObject({ status: 429, answered_by: 'proxy' });

    // with the outbox empty the share no longer applies: the remaining platform budget is the proxy's
    busy = false;
    const idle = await h.app.inject({ method: 'GET', url: '/api/open/v1/walls/1', headers: SANDBOX_KEY });
    expect(idle.statusCode).toBe(200);
    expect(idle.headers['x-ratelimit-limit']).toBe('8');
    expect(idle.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('gives the proxy its share back once the window has passed', async () => {
    harness = await startHarness({ outboxBusy: async () => true, botShare: 0.25 });
    const h = harness;
    await h.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: 8 });
    const call = () => h.app.inject({ method: 'GET', url: '/api/open/v1/walls/1', headers: SANDBOX_KEY });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(429);
    h.clock.advance(60_001);
    expect((await call()).statusCode).toBe(200);
  });
});

describe('a proxy caller that hangs up', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('is not sent to the platform once the budget frees up', async () => {
    harness = await startHarness();
    const h = harness;
    await h.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: 1 });
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await fetch(`${base}/api/open/v1/walls/1`, { headers: SANDBOX_KEY });
    expect(first.status).toBe(200);

    const controller = new AbortController();
    const waiting = fetch(`${base}/api/open/v1/walls/2`, { headers: SANDBOX_KEY, signal: controller.signal }).catch((error: unknown) => error);
    await waitFor(async () => h.lines.length === 1 && h.clock.pendingTimers > 0, 'the call to wait for the budget');
    controller.abort();
    await waiting;
    await waitFor(async () => h.lines.length === 2, 'the audit line of the abandoned call');
    expect(h.lines[1]).toMatchObject({ path: '/walls/2', status: 499, answered_by: 'proxy' });
    h.clock.advance(61_000);
    await delay(100);
    expect((await h.platformRequests()).map((r) => r.path)).toEqual(['/api/open/v1/walls/1']);
  });
});
