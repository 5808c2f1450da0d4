// Pausing a bot (issue #17, item 1): while paused its deliveries are acknowledged and kept, its slots
// and messages held; a resume hands everything back once. Over real HTTP: the platform's deliveries,
// the admin routes the CLI calls, the alert input, /readyz and /metrics.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD_NOTE } from '../../src/store/paused-bots';
import { startPair, type Pair } from '../../src/testing';

const BOTS = resolve('test/fixtures/pause-bots');
const START = Date.parse('2026-03-02T10:00:30Z');
const SLOT_11 = Date.parse('2026-03-02T11:00:00Z');
const SLOT_12 = Date.parse('2026-03-02T12:00:00Z');

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: unknown[]; message?: string; error?: unknown };
}

describe('pausing and resuming a bot', () => {
  let pair: Pair;
  let url: string;

  beforeAll(async () => {
    pair = await startPair({ botsDir: BOTS, start: START });
    url = pair.runtime.inspect().url!;
  });
  afterAll(async () => {
    await pair?.close();
  });

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Answer['body'] };
  };
  const pause = (reason?: string): Promise<Answer> => call('POST', '/_admin/bots/pausable/pause', reason === undefined ? {} : { reason });
  const resume = (body: unknown = {}): Promise<Answer> => call('POST', '/_admin/bots/pausable/resume', body);
  const store = () => pair.runtime.inspect().store;
  const heldDeliveries = async () => (await store().inbox.list({ limit: 1_000 })).filter((e) => e.payload.bot === 'pausable' && e.lastError === HELD_NOTE);
  const heldMessages = async () => (await store().outbox.list({ limit: 1_000 })).filter((e) => e.lastError === HELD_NOTE);
  const post = async (body: string) => {
    const refs = await pair.refs();
    return pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body });
  };
  const bodies = async (postId: number): Promise<string[]> => (await pair.platform.commentsOn(postId)).map((c) => String(c.body));

  it("acknowledges and keeps a paused bot's deliveries while other bots go on, and handles each once on resume", async () => {
    const paused = await pause('answers twice');
    expect(paused).toMatchObject({ status: 200, body: { ok: true, tenant: 'sandbox', bot: 'pausable', already: false, pause: { reason: 'answers twice' } } });

    const ready = await call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.paused).toEqual([expect.objectContaining({ tenant: 'sandbox', bot: 'pausable', reason: 'answers twice' })]);
    const metrics = (await call('GET', '/metrics')).body.text as string;
    expect(metrics).toMatch(/intrabot_bot_paused\{tenant="sandbox",bot="pausable"\} 1/);
    expect(metrics).toMatch(/intrabot_bot_paused\{tenant="sandbox",bot="bystander"\} 0/);

    const posts = [await post('pause-test one'), await post('pause-test two'), await post('pause-test three')];
    // the neighbour answers at once: the paused bot's deliveries hold up no one
    for (const p of posts)
      await pair.platform.waitFor(
        () => bodies(p.id),
        (c) => c.includes(`bystander saw: ${String(p.body)}`),
      );
    await pair.platform.waitFor(heldDeliveries, (held) => held.length === 3);
    // spec: Outgoing webhooks — every delivery was answered 200, so the platform retries none
    const deliveries = (await pair.platform.deliveries({ event: 'service.post.created' })) as { ok?: boolean }[];
    expect(deliveries.length).toBeGreaterThanOrEqual(6);
    expect(deliveries.every((d) => d.ok === true)).toBe(true);
    for (const p of posts) expect((await bodies(p.id)).some((b) => b.startsWith('pausable'))).toBe(false);
    // the console shows them waiting for the bot, not failing
    const timeline = (await call('GET', '/console/api/deliveries?bot=pausable')).body as unknown as { rows: { status: string; detail: string | null }[] };
    expect(timeline.rows.filter((r) => r.detail === HELD_NOTE).map((r) => r.status)).toEqual(['waiting', 'waiting', 'waiting']);

    const resumed = await resume();
    expect(resumed).toMatchObject({ status: 200, body: { resumed: true, released: 3, discarded: 0 } });
    for (const p of posts)
      await pair.platform.waitFor(
        () => bodies(p.id),
        (c) => c.includes(`pausable saw: ${String(p.body)}`),
      );
    await pair.settle();
    for (const p of posts) expect((await bodies(p.id)).sort()).toEqual([`bystander saw: ${String(p.body)}`, `pausable saw: ${String(p.body)}`]);
    expect((await call('GET', '/readyz')).body.paused).toBeUndefined();
    expect((await call('GET', '/metrics')).body.text).toMatch(/intrabot_bot_paused\{tenant="sandbox",bot="pausable"\} 0/);
  });

  it('drops what waited for a paused bot only when resumed with discard', async () => {
    await pause();
    const p = await post('pause-test dropped');
    await pair.platform.waitFor(heldDeliveries, (held) => held.length === 1);
    // a held delivery is not work in motion: the pair settles while the bot is paused
    await pair.settle();
    expect(await bodies(p.id)).toEqual(['bystander saw: pause-test dropped']);
    expect(await resume({ discard: true })).toMatchObject({ status: 200, body: { resumed: true, released: 0, discarded: 1 } });
    await pair.settle();
    expect(await bodies(p.id)).toEqual(['bystander saw: pause-test dropped']);
  });

  it('holds what the bot queued before its pause, and sends it on resume', async () => {
    // the reply fails once, so it waits in the outbox for its retry when the pause comes
    await pair.platform.fault({ method: 'POST', path: '/api/open/v1/posts/*/comments', status: 503, count: 2 });
    const p = await post('pause-test queued');
    await pair.platform.waitFor(
      async () => (await store().outbox.list({ limit: 1_000 })).filter((e) => e.lastError !== null),
      (waiting) => waiting.length > 0,
    );
    await pause('held reply');
    await pair.platform.waitFor(
      async () => {
        await pair.platform.advance(5);
        return heldMessages();
      },
      (held) => held.length >= 1,
      10_000,
    );
    expect((await bodies(p.id)).some((b) => b.startsWith('pausable'))).toBe(false);
    // the held reply is set aside: the bystander's answer on the same wall goes out while the pause lasts
    const meanwhile = await post('pause-test meanwhile');
    await pair.platform.waitFor(
      () => bodies(meanwhile.id),
      (c) => c.includes('bystander saw: pause-test meanwhile'),
      10_000,
    );
    const resumed = await resume();
    expect(resumed.body).toMatchObject({ resumed: true });
    expect(resumed.body.messages).toBeGreaterThanOrEqual(1);
    await pair.platform.waitFor(
      () => bodies(p.id),
      (c) => c.includes('pausable saw: pause-test queued'),
      10_000,
    );
  });

  it("holds a paused bot's cron slot and accepted alerts, then runs the slot once per catch_up and sends the alerts", async () => {
    await pause('maintenance');
    const alert = await fetch(`${url}/alerts/pausable/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer pause-test-alert-token' },
      body: JSON.stringify({ text: 'pause-test alert: disk almost full' }),
    });
    expect(alert.ok).toBe(true);
    await pair.platform.waitFor(heldMessages, (held) => held.length === 1);
    expect(await call('POST', '/_admin/jobs/sandbox/pausable/hourly/run')).toMatchObject({ status: 409 });

    await pair.platform.advance(Math.ceil((SLOT_11 - pair.clock.now()) / 1000) + 1);
    const hourly = async () => (await pair.runtime.inspect().jobs()).find((j) => j.schedule.bot === 'pausable' && j.schedule.job === 'hourly')!;
    await pair.platform.waitFor(hourly, (listing) => listing.nextSlot === SLOT_12);
    const refs = await pair.refs();
    const wall = async () => (await pair.platform.wallPosts(refs.company_wall_id)).map((p) => String(p.body));
    expect((await wall()).filter((b) => b.includes('hourly slot') || b.includes('disk almost full'))).toEqual([]);

    expect((await resume()).body).toMatchObject({ resumed: true, messages: 1 });
    const posted = await pair.platform.waitFor(
      wall,
      (bodies) => bodies.some((b) => b.includes(`hourly slot ${new Date(SLOT_11).toISOString()}`)) && bodies.some((b) => b.includes('disk almost full')),
    );
    expect(posted.filter((b) => b.includes('hourly slot'))).toHaveLength(1);
    const runs = (await hourly()).lastRuns.filter((r) => r.slot === SLOT_11);
    expect(runs).toEqual([expect.objectContaining({ outcome: 'ok' })]);
  });

  it('shows a paused bot with its reason in the console, and pauses and resumes it from there', async () => {
    const consoleHeaders = { 'x-intrabot-console': '1' };
    const paused = await call('POST', '/console/api/bots/sandbox/pausable/pause', { reason: 'from the console' }, consoleHeaders);
    expect(paused).toMatchObject({ status: 200, body: { ok: true, already: false } });
    const bots = (await call('GET', '/console/api/bots')).body as unknown as { bots: { name: string; tenants: { tenant: string; paused: unknown }[] }[] };
    const tenantsOf = (name: string) => bots.bots.find((b) => b.name === name)!.tenants;
    expect(tenantsOf('pausable')).toEqual([expect.objectContaining({ tenant: 'sandbox', paused: { reason: 'from the console', since: expect.any(Number) } })]);
    expect(tenantsOf('bystander')).toEqual([expect.objectContaining({ paused: null })]);
    // a change without the console's header is refused (another site's form cannot pause a bot)
    expect((await call('POST', '/console/api/bots/sandbox/pausable/resume', {})).status).toBe(403);
    const resumed = await call('POST', '/console/api/bots/sandbox/pausable/resume', {}, consoleHeaders);
    expect(resumed).toMatchObject({ status: 200, body: { resumed: true } });
    expect((await call('GET', '/_admin/bots/paused')).body.data).toEqual([]);
  });

  it('refuses an unknown bot with a did-you-mean and a bad reason naming the field, changing nothing', async () => {
    const unknown = await call('POST', '/_admin/bots/pausabel/pause', {});
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain('did you mean \\"pausable\\"');
    const empty = await pause('   ');
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('reason');
    expect((await call('POST', '/_admin/bots/pausable/resume', { discrad: true })).status).toBe(400);
    expect((await call('GET', '/_admin/bots/paused')).body.data).toEqual([]);
    expect((await resume()).body).toMatchObject({ resumed: false });
  });
});
