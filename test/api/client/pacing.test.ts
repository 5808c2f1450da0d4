import { describe, expect, it } from 'vitest';
import { API, json, platformDouble, settle, START, testEndpoints as ep } from './platform-double';

/**
 * The double enforces its own budget: a request that arrives before the window it announced
 * has reset is answered 429, so "no 429" below means the client really waited.
 */
function enforcingPlatform(resetHeader: (resetAtMs: number) => string) {
  const double = platformDouble();
  const resetAtMs = START + 30_000;
  const statuses: number[] = [];
  double.on('GET', `${API}/things/1`, () => {
    statuses.push(200);
    return json(200, { data: { id: 1 } }, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetHeader(resetAtMs) });
  });
  double.on('GET', `${API}/things/2`, () => {
    const early = double.clock.now() < resetAtMs;
    statuses.push(early ? 429 : 200);
    return early ? json(429, {}, { 'retry-after': '30' }) : json(200, { data: { id: 2 } });
  });
  return { ...double, statuses };
}

describe('pacing from rate-limit headers (spec: Limits)', () => {
  it('holds the next request until the reset when the budget is spent (reset as seconds), and gets no 429', async () => {
    const { client, clock, statuses } = enforcingPlatform(() => '30');
    await client.call(ep.get, { params: { id: 1 } });
    const next = client.call(ep.get, { params: { id: 2 } });
    await settle();
    expect(statuses).toEqual([200]);
    clock.advance(29_999);
    await settle();
    expect(statuses).toEqual([200]);
    clock.advance(1_000);
    await settle();
    await expect(next).resolves.toEqual({ id: 2 });
    expect(statuses).toEqual([200, 200]);
  });

  it('holds the next request until the reset when the reset is an epoch in seconds, and gets no 429', async () => {
    const { client, clock, statuses } = enforcingPlatform((at) => String(Math.floor(at / 1000)));
    await client.call(ep.get, { params: { id: 1 } });
    const next = client.call(ep.get, { params: { id: 2 } });
    await settle();
    clock.advance(29_999);
    await settle();
    expect(statuses).toEqual([200]);
    clock.advance(1_000);
    await settle();
    await expect(next).resolves.toEqual({ id: 2 });
    expect(statuses).toEqual([200, 200]);
  });

  it('waits the Retry-After seconds of a 429 before trying again', async () => {
    const { client, clock, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(429, {}, { 'retry-after': '20' }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const result = client.call(ep.get, { params: { id: 1 } });
    await settle();
    clock.advance(19_999);
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(1);
    await settle();
    await expect(result).resolves.toEqual({ id: 1 });
    expect(seen).toHaveLength(2);
  });

  it('waits until the HTTP date of a 429 Retry-After before trying again', async () => {
    const { client, clock, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(429, {}, { 'retry-after': new Date(START + 40_000).toUTCString() }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const result = client.call(ep.get, { params: { id: 1 } });
    await settle();
    clock.advance(39_000);
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(1_000);
    await settle();
    await expect(result).resolves.toEqual({ id: 1 });
  });

  it('keeps other requests of the same token back while a Retry-After runs', async () => {
    const { client, clock, on, seen } = platformDouble({ retry: { attempts: 1 } });
    on('GET', `${API}/things/1`, () => json(429, {}, { 'retry-after': '10' }));
    on('GET', `${API}/things/2`, () => json(200, { data: { id: 2 } }));
    await expect(client.call(ep.get, { params: { id: 1 } })).rejects.toMatchObject({ code: 'api_rate_limited' });
    const other = client.call(ep.get, { params: { id: 2 } });
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(10_000);
    await settle();
    await expect(other).resolves.toEqual({ id: 2 });
  });

  /** Runs the frozen clock in `stepMs` steps until `done` settles, noting the clock time of every request. */
  async function runUntilSettled(clock: { now(): number; advance(ms: number): void }, done: Promise<unknown>, stepMs: number, maxMs: number): Promise<void> {
    let settled = false;
    void done.finally(() => (settled = true)).catch(() => undefined);
    for (let t = 0; t < maxMs && !settled; t += stepMs) {
      await settle();
      clock.advance(stepMs);
    }
    await settle();
  }

  it('backs off exponentially from 429s that name no wait, capped at the one-minute window (spec: Limits)', async () => {
    const { client, clock, on } = platformDouble({ retry: { attempts: 10, baseDelayMs: 0, maxDelayMs: 0, maxTotalMs: 3_600_000 } });
    const at: number[] = [];
    on('GET', `${API}/things/1`, () => (at.push(clock.now()), json(429, {})), 9);
    on('GET', `${API}/things/1`, () => (at.push(clock.now()), json(200, { data: { id: 1 } })));
    const result = client.call(ep.get, { params: { id: 1 } });
    await runUntilSettled(clock, result, 250, 600_000);
    await expect(result).resolves.toEqual({ id: 1 });
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    // ceilings 1, 2, 4 ... s doubling per 429 in a row, never above 60 s; the draw is fixed at 0.5 (3/4 of each)
    const expected = [750, 1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000, 45_000];
    expect(gaps).toHaveLength(expected.length);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i] ?? 0);
      expect(gap).toBeLessThanOrEqual((expected[i] ?? 0) + 250);
    });
  });

  it('starts the backoff over once an answer is not a 429', async () => {
    const { client, clock, on } = platformDouble({ retry: { attempts: 1 } });
    on('GET', `${API}/things/1`, () => json(429, {}), 2);
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    on('GET', `${API}/things/1`, () => json(429, {}));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const at: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const call = client.call(ep.get, { params: { id: 1 } });
      await runUntilSettled(clock, call, 50, 10_000);
      at.push(clock.now());
      await call.catch(() => undefined);
    }
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    // 429, 429 (waits 750), 200 (waits 1,500), 429 (the streak restarted), 200 (waits 750 again)
    expect(gaps[1]).toBeGreaterThanOrEqual(1_500);
    expect(gaps[3]).toBeGreaterThanOrEqual(750);
    expect(gaps[3]).toBeLessThan(1_500);
  });

  it('waits until the X-RateLimit-Reset of a 429 that has no Retry-After', async () => {
    const { client, clock, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(429, {}, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const result = client.call(ep.get, { params: { id: 1 } });
    await settle();
    clock.advance(19_000);
    await settle();
    expect(seen).toHaveLength(1);
    await runUntilSettled(clock, result, 250, 5_000);
    await expect(result).resolves.toEqual({ id: 1 });
  });

  it("paces an incoming webhook on its own budget, not the token's (spec: Incoming webhooks)", async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' }));
    on('POST', `${API}/incoming/hook-a`, () => json(200, { ok: true }));
    await client.call(ep.get, { params: { id: 1 } });
    await expect(client.call(ep.incoming, { params: { token: 'hook-a' }, body: { text: 'disk full' } })).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });
});
