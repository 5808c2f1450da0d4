import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { openPlatformRig, type PlatformRig } from './platform-rig';

let current: PlatformRig | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setup(options: Parameters<typeof openPlatformRig>[1] = {}): Promise<PlatformRig> {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  current = await openPlatformRig(clock, options);
  return current;
}

describe('outbox sender against the sandbox', () => {
  it('delivers every queued post once, in order, after the platform answered 503 until the fault was cleared', async () => {
    const r = await setup({ uncertainDelayMs: 2_000 });
    const bodies = ['one', 'two', 'three', 'four', 'five'].map((b) => `deploy ${b}`);
    for (const body of bodies) await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 1, body });
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503 });
    r.sender.start();
    // let it fail several times: every failed attempt is a 503 on the first post, nothing behind it overtakes
    expect(await r.run(async () => (await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/1/posts' })).length >= 3)).toBe(true);
    expect(await r.platform.wallPosts(1).then((posts) => posts.filter((p) => p.body.startsWith('deploy ')))).toEqual([]);
    const [head] = await r.store.outbox.list();
    expect(head?.lastError).toContain('api_uncertain_write');

    await r.platform.control('DELETE', '/_sandbox/faults');
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);
    const delivered = (await r.platform.wallPosts(1)).filter((p) => p.body.startsWith('deploy '));
    expect(delivered.map((p) => p.body)).toEqual(bodies);
    expect(await r.store.outbox.list({ state: 'dead' })).toEqual([]);
  });

  it('dead-letters a 422 with the platform message and lets the next entry of that wall proceed', async () => {
    const r = await setup();
    // spec: Posts, create body — a non-bot bot_user_id gives 422
    const bad = await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 2, body: 'as a human', botUserId: 1 });
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 2, body: 'after the refusal' });
    r.sender.start();
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);
    const dead = await r.store.outbox.list({ state: 'dead' });
    expect(dead.map((d) => d.id)).toEqual([bad.id]);
    expect(dead[0]?.deadReason).toMatch(/^422 /);
    expect(dead[0]?.deadReason).toContain('bot_user_id');
    expect((await r.platform.wallPosts(2)).map((p) => p.body)).toContain('after the refusal');
    expect((await r.platform.wallPosts(2)).map((p) => p.body)).not.toContain('as a human');
  });

  it('waits out Retry-After after a 429 before sending again (spec: Limits)', async () => {
    const r = await setup();
    await r.platform.control('PUT', '/_sandbox/settings', { rate_limit_per_minute: 2 });
    // someone else spends the token's budget: our pacer has not seen it
    await r.platform.api('GET', '/walls');
    await r.platform.api('GET', '/walls');
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'after the wait' });
    r.sender.start();
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);
    const windowStart = Date.parse((await r.platform.requests({ method: 'GET', path: '/api/open/v1/walls' }))[0]?.at ?? '');
    const posts = await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/3/posts' });
    expect(posts.map((p) => p.status)).toEqual([429, 201]);
    // the sandbox's window started with the first GET; its Retry-After pointed at the window's end
    expect(Date.parse(posts[1]?.at ?? '')).toBeGreaterThanOrEqual(windowStart + 60_000);
    expect((await r.platform.wallPosts(3)).filter((p) => p.body === 'after the wait')).toHaveLength(1);
  });

  it('backs off exponentially, with jitter and a cap, from a 429 without Retry-After or X-RateLimit-Reset (spec: Limits)', async () => {
    const r = await setup({ random: Math.random });
    // a 429 from something in front of the API: no Retry-After, no rate-limit headers at all
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 429 });
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'after the storm' });
    const start = r.clock.now();
    r.sender.start();
    const tries = async () => (await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/3/posts' })).map((q) => Date.parse(q.at));
    // ten minutes of clock time, a second per step
    expect(await r.run(() => r.clock.now() - start >= 10 * 60_000, { advanceMs: 1_000, maxRealMs: 30_000 })).toBe(true);
    const at = await tries();
    const inFirstTwoMinutes = at.filter((t) => t - start <= 120_000).length;
    // 1, 2, 4, 8, 16, 32, 60 s ceilings: a handful of tries, not one every second or two
    expect(inFirstTwoMinutes).toBeGreaterThanOrEqual(4);
    expect(inFirstTwoMinutes).toBeLessThanOrEqual(9);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    // the cap: never longer than a rate window, and it is reached. Plus a few steps of the test's clock: it
    // moves a second a step in a real-time loop, and under load the sender takes its wake-up a step or two
    // late (63 s was seen in CI); uncapped, the next ceilings would be 64, 128 and 256 s
    expect(Math.max(...gaps)).toBeLessThanOrEqual(64_000);
    expect(gaps.filter((g) => g >= 30_000).length).toBeGreaterThanOrEqual(3);

    await r.platform.control('DELETE', '/_sandbox/faults');
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0, { advanceMs: 1_000 })).toBe(true);
    expect((await r.platform.wallPosts(3)).filter((p) => p.body === 'after the storm')).toHaveLength(1);
  });

  it('sends every kind of entry to its endpoint', async () => {
    const r = await setup();
    const refs = directoryRefs(r.platform.sandbox.ctx);
    const post = (await r.platform.api<{ data: { id: number } }>('POST', '/walls/1/posts', { body: 'to be edited' })).body.data;
    const hook = await r.platform.api<{ data: { url: string } }>('POST', '/incoming-webhooks', { name: 'deploys', action: 'wall_post', wall_id: 3 });
    await r.store.secrets.put('incoming:deploys', hook.body.data.url);
    const employee = refs?.employee_ids[0] ?? 0;
    const entries = [
      { kind: 'comment', tenant: 'sandbox', postId: post.id, body: 'a comment' },
      { kind: 'dm', tenant: 'sandbox', userId: employee, botUserId: refs?.bot_user_id ?? 0, text: 'a direct message' },
      {
        kind: 'incoming',
        tenant: 'sandbox',
        webhook: { id: 'deploys', urlSecretRef: 'incoming:deploys' },
        action: 'wall_post',
        payload: { text: 'through a webhook' },
      },
      { kind: 'notification', tenant: 'sandbox', notification: { title: 'a notification', body: 'hello', users: [employee] } },
      { kind: 'announcement', tenant: 'sandbox', announcement: { title: 'an announcement', body: 'hello' } },
      { kind: 'event', tenant: 'sandbox', event: { title: 'an event', body: 'hello', starts_at: '2026-12-01' } },
      { kind: 'api', tenant: 'sandbox', endpointId: 'posts.update', params: { wall_id: 1, id: post.id }, body: { body: 'edited' } },
    ];
    for (const entry of entries) await r.outbox.enqueue(entry);
    r.sender.start();
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);
    expect(await r.store.outbox.list({ state: 'dead' })).toEqual([]);
    const writes = (await r.platform.requests())
      .filter((q) => q.method !== 'GET' && q.status < 300)
      .map((q) => `${q.method} ${q.path.replace(/\/\d+(?=\/|$)/g, '/N')}`);
    expect(writes).toEqual(
      expect.arrayContaining([
        'POST /api/open/v1/posts/N/comments',
        'POST /api/open/v1/users/N/messages',
        'POST /api/open/v1/incoming/[redacted]',
        'POST /api/open/v1/notifications',
        'POST /api/open/v1/announcements',
        'POST /api/open/v1/events',
        'PUT /api/open/v1/walls/N/posts/N',
      ]),
    );
    expect((await r.platform.wallPosts(3)).map((p) => p.body)).toContain('through a webhook');
    expect((await r.platform.wallPosts(1)).find((p) => p.id === post.id)?.body).toBe('edited');
  });

  it('keeps a reply comment behind the post queued before it on the same wall', async () => {
    const r = await setup();
    const existing = (await r.platform.api<{ data: { id: number } }>('POST', '/walls/1/posts', { body: 'an employee post' })).body.data;
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503, count: 2 });
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 1, body: 'status: investigating' });
    await r.outbox.enqueue({ kind: 'comment', tenant: 'sandbox', wallId: 1, postId: existing.id, body: 'see the status post' });
    r.sender.start();
    expect(await r.run(async () => (await r.store.outbox.list()).length === 0)).toBe(true);
    const writes = (await r.platform.requests({ method: 'POST' })).filter((q) => q.status < 300);
    const order = writes.map((w) => (w.path.includes('/comments') ? 'comment' : 'post'));
    expect(order.slice(-2)).toEqual(['post', 'comment']);
  });
});
