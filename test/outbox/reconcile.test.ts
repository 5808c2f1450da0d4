import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { achievementRefs } from '../../src/sandbox/seed/achievements';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { settleStore } from '../helpers/settle';
import { waitUntil } from './helpers';
import { openPlatformRig, type PlatformRig } from './platform-rig';

let current: PlatformRig | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/**
 * A flowing clock: the latency fault is real time, and the client gives up on the answer after
 * 300 ms while the sandbox creates the post after 2.5 s (undici's timers are coarse): the write lands, the answer is lost.
 */
async function setup(created: { kind: string; id: number }[] = []): Promise<PlatformRig> {
  const clock = new AdjustableClock();
  current = await openPlatformRig(clock, {
    headersTimeoutMs: 300,
    uncertainDelayMs: 3_500,
    backoff: { baseMs: 200, maxMs: 1_000 },
    steps: { onCreated: (c) => void created.push(c) },
  });
  return current;
}

async function drained(r: PlatformRig): Promise<boolean> {
  return waitUntil(async () => (await r.store.outbox.list()).length === 0, 15_000);
}

describe('uncertain writes', () => {
  it('reconciles a create whose answer was lost instead of posting it twice', async () => {
    const created: { kind: string; id: number }[] = [];
    const r = await setup(created);
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', latency_ms: 2_500, count: 1 });
    const bot = directoryRefs(r.platform.sandbox.ctx)?.bot_user_id;
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 2, body: 'release 4.2 is out', ...(bot ? { botUserId: bot } : {}) });
    r.sender.start();
    expect(await drained(r)).toBe(true);
    const matching = (await r.platform.wallPosts(2)).filter((p) => p.body === 'release 4.2 is out');
    expect(matching).toHaveLength(1);
    // found by reading the wall back, and handed to the loop guard like a post we created
    expect(created).toEqual([{ tenant: 'sandbox', kind: 'post', id: matching[0]?.id, entryId: expect.any(String) }]);
    const reads = await r.platform.requests({ method: 'GET', path: '/api/open/v1/walls/2/posts' });
    expect(reads.some((q) => q.path.includes('since='))).toBe(true);
  });

  it('sends a create again when the reconcile finds it did not arrive', async () => {
    const r = await setup();
    // a 503 the platform answered without acting: uncertain to us, absent on the wall
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503, count: 1 });
    await r.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'maintenance tonight' });
    r.sender.start();
    expect(await drained(r)).toBe(true);
    expect((await r.platform.wallPosts(3)).filter((p) => p.body === 'maintenance tonight')).toHaveLength(1);
    expect((await r.platform.requests({ method: 'POST', path: '/api/open/v1/walls/3/posts' })).map((q) => q.status)).toEqual([503, 201]);
  });

  it('reconciles an announcement whose answer was lost by its title, drafts included', async () => {
    const r = await setup();
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/announcements', latency_ms: 2_500, count: 1 });
    await r.outbox.enqueue({
      kind: 'announcement',
      tenant: 'sandbox',
      announcement: { title: 'Office closed on Friday', body: 'Enjoy the long weekend', is_published: false },
    });
    r.sender.start();
    expect(await drained(r)).toBe(true);
    const list = await r.platform.api<{ data: { title: string }[] }>('GET', '/announcements?status=all&per_page=50');
    expect(list.body.data.filter((a) => a.title === 'Office closed on Friday')).toHaveLength(1);
    expect((await r.platform.requests({ method: 'GET', path: '/api/open/v1/announcements' })).some((q) => q.path.includes('status=all'))).toBe(true);
  });

  it('resends an award whose answer was lost: the identical row returns the existing award (spec: Award rules 3)', async () => {
    const r = await setup();
    const ctx = r.platform.sandbox.ctx;
    const achievement = achievementRefs(ctx)?.custom_public_id;
    const user = directoryRefs(ctx)?.employee_ids[1];
    expect(achievement && user).toBeTruthy();
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/achievements/*/awards', latency_ms: 2_500, count: 1 });
    await r.outbox.enqueue({ kind: 'award', tenant: 'sandbox', achievementId: achievement ?? 0, rows: [{ user_id: user ?? 0, awarded_at: '2026-11-20' }] });
    r.sender.start();
    expect(await drained(r)).toBe(true);
    const awards = await r.platform.api<{ data: { user: { id: number }; awarded_at: string }[] }>('GET', `/achievements/${achievement}/awards?per_page=50`);
    expect(awards.body.data.filter((a) => a.user.id === user && a.awarded_at.startsWith('2026-11-20'))).toHaveLength(1);
    // the first answer was lost (the sandbox logs no answer it could not deliver); the resend was answered
    expect((await r.platform.requests({ method: 'POST', path: `/api/open/v1/achievements/${achievement}/awards` })).map((q) => q.status)).toEqual([201]);
  });

  it('dead-letters a direct message of unknown outcome when on_uncertain is drop', async () => {
    const r = await setup();
    const refs = directoryRefs(r.platform.sandbox.ctx);
    await r.platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/users/*/messages', latency_ms: 2_500, count: 1 });
    const { id } = await r.outbox.enqueue(
      { kind: 'dm', tenant: 'sandbox', userId: refs?.employee_ids[0] ?? 0, botUserId: refs?.bot_user_id ?? 0, text: 'your laptop is ready' },
      { onUncertain: 'drop' },
    );
    r.sender.start();
    expect(await waitUntil(async () => (await r.store.outbox.list({ state: 'dead' })).length === 1)).toBe(true);
    const [dead] = await r.store.outbox.list({ state: 'dead' });
    expect(dead?.id).toBe(id);
    expect(dead?.deadReason).toContain('on_uncertain: drop');
    // not sent a second time: no answered request ever reached the messages endpoint, at most the lost one arrived;
    // checked once the outbox holds nothing live (the sender sends only what it leased), so nothing can send it again
    await settleStore(r.store, { settleDeliveries: async () => void (await r.platform.control('POST', '/_sandbox/deliveries/settle', {})) });
    const messages = (await r.platform.control('GET', '/_sandbox/messages')) as { data: { text: string }[] };
    expect(messages.data.filter((m) => m.text === 'your laptop is ready').length).toBeLessThanOrEqual(1);
    expect(await r.platform.requests({ method: 'POST', path: '/api/open/v1/users/' })).toEqual([]);
  });
});
