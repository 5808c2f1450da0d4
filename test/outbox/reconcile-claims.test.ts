import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { waitUntil } from './helpers';
import { openPlatformRig, type PlatformRig } from './platform-rig';

/**
 * Reconciling tells an earlier identical message from the one this entry's lost attempt created: an item
 * another entry created (or already claimed) is never taken for this entry's (src/outbox/created-items.ts).
 * The clock flows; the rig's `run` moves it past the short waits below.
 */
let current: PlatformRig | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setup(uncertainDelayMs = 1_000): Promise<PlatformRig> {
  current = await openPlatformRig(new AdjustableClock(), { headersTimeoutMs: 300, uncertainDelayMs, backoff: { baseMs: 200, maxMs: 1_000 } });
  current.sender.start();
  return current;
}

async function drained(r: PlatformRig): Promise<boolean> {
  return r.run(async () => (await r.store.outbox.list()).length === 0);
}

async function titled(r: PlatformRig, path: '/announcements' | '/events', title: string): Promise<number> {
  const list = await r.platform.api<{ data: { title: string }[] }>('GET', `${path}?status=all&per_page=50`);
  return list.body.data.filter((item) => item.title === title).length;
}

describe('reconciling a repeat of an earlier message', () => {
  it('sends a repeated announcement again after a 503 instead of taking the earlier one with its title', async () => {
    const r = await setup();
    const announcement = { title: 'Canteen closed today', body: 'Sorry!', is_published: false };
    await r.outbox.enqueue({ kind: 'announcement', tenant: 'sandbox', announcement });
    expect(await drained(r)).toBe(true);
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/announcements', status: 503, count: 1 });
    await r.outbox.enqueue({ kind: 'announcement', tenant: 'sandbox', announcement });
    expect(await drained(r)).toBe(true);
    expect(await titled(r, '/announcements', 'Canteen closed today')).toBe(2);
    expect((await r.platform.requests({ method: 'POST', path: '/api/open/v1/announcements' })).map((q) => q.status)).toEqual([201, 503, 201]);
  });

  it('sends a repeated event again after a 503 instead of taking the earlier one with its title', async () => {
    const r = await setup();
    const event = { title: 'Fire drill', body: 'Meet in the car park.', starts_at: '2026-12-01' };
    await r.outbox.enqueue({ kind: 'event', tenant: 'sandbox', event });
    expect(await drained(r)).toBe(true);
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/events', status: 503, count: 1 });
    await r.outbox.enqueue({ kind: 'event', tenant: 'sandbox', event });
    expect(await drained(r)).toBe(true);
    expect(await titled(r, '/events', 'Fire drill')).toBe(2);
  });

  it('finds the post its own lost attempt created beside an earlier identical post, and sends nothing twice', async () => {
    // the reconcile waits a minute of clock time: time to play the platform acting before its 503
    const r = await setup(60_000);
    const red = async () => (await r.platform.wallPosts(2)).filter((p) => p.body === 'Build is red');
    const creates = async () => (await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/2/posts' })).map((q) => q.status);
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 2, body: 'Build is red' });
    expect(await drained(r)).toBe(true);
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503, count: 1 });
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 2, body: 'Build is red' });
    expect(await waitUntil(async () => (await creates()).includes(503))).toBe(true);
    // the platform created the post after all (a gateway answered 503): same token, same text
    await r.platform.api('POST', '/walls/2/posts', { body: 'Build is red' });
    expect(await drained(r)).toBe(true);
    expect(await red()).toHaveLength(2);
    // the wall was read back, and the unclaimed post taken: no create after it
    expect((await r.platform.requests({ method: 'GET', path: '/api/open/v1/walls/2/posts' })).some((q) => q.path.includes('since='))).toBe(true);
    expect(await creates()).toEqual([201, 503, 201]);
  });

  it("does not take an employee's identical comment for the runtime's lost one", async () => {
    const r = await setup();
    const refs = directoryRefs(r.platform.sandbox.ctx)!;
    const post = await r.platform.control('POST', `/_sandbox/users/${refs.employee_ids[0]}/posts`, { wall_id: refs.company_wall_id, body: 'Lunch?' });
    const postId = (post as { data: { id: number } }).data.id;
    // the runtime's first comment teaches the outbox which user its token writes as
    await r.outbox.enqueue({ kind: 'comment', tenant: 'sandbox', postId, body: 'Noted.' });
    expect(await drained(r)).toBe(true);
    await r.platform.control('POST', `/_sandbox/users/${refs.employee_ids[1]}/comments`, { post_id: postId, body: 'Count me in' });
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/posts/*/comments', status: 503, count: 1 });
    await r.outbox.enqueue({ kind: 'comment', tenant: 'sandbox', postId, body: 'Count me in' });
    expect(await drained(r)).toBe(true);
    const comments = await r.platform.api<{ data: { body: string; author: { id: number } }[] }>('GET', `/posts/${postId}/comments?per_page=50`);
    const same = comments.body.data.filter((c) => c.body === 'Count me in');
    expect(same).toHaveLength(2);
    expect(new Set(same.map((c) => c.author.id)).size).toBe(2);
  });
});
