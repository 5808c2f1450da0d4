import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';
import { sign } from '../../src/webhooks/signature';

/**
 * The receiver of a running runtime, over loopback, with deliveries the sandbox really sent: replayed
 * as they were, or re-signed with a Timestamp out of the window (spec: Events, Outgoing webhooks;
 * spec: Limits, signature replay window of 5 minutes).
 */
describe('runtime receiver over HTTP, with the sandbox', () => {
  let pair: Pair;
  let secret: string;
  let sent: { body: string; comments: () => Promise<unknown[]> };

  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
    secret = (await pair.runtime.inspect().store.secrets.get(webhookSecretName('sandbox', 'echo')))!;
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'replay me' });
    const comments = () => pair.platform.commentsOn(post.id);
    await pair.platform.waitFor(comments, (c) => c.length === 1);
    const deliveries = await pair.platform.deliveries({ event: 'service.post.created' });
    const delivery = deliveries.find((d) => String(d.body).includes('replay me'));
    sent = { body: String(delivery!.body), comments };
  });
  afterAll(async () => pair?.close());

  const deliver = (body: string, timestampS: number) =>
    fetch(`${pair.runtime.inspect().url}/hooks/sandbox/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', timestamp: String(timestampS), signature: sign(secret, timestampS, body) },
      body,
    });
  const nowS = () => Math.floor(pair.clock.now() / 1000);
  const rejected = async (reason: string) => {
    const metrics = await (await fetch(`${pair.runtime.inspect().url}/metrics`)).text();
    return Number(new RegExp(`intrabot_deliveries_rejected_total\\{reason="${reason}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };

  it('acknowledges a replayed delivery id with 200 and does not handle it again', async () => {
    const res = await deliver(sent.body, nowS());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ duplicate: true });
    await pair.settle();
    expect(await sent.comments()).toHaveLength(1);
  });

  it('refuses a Timestamp more than 5 minutes old, and one more than 5 minutes ahead, each with its metric reason', async () => {
    const body = sent.body.replace('replay me', 'stale or future');
    const stale = await deliver(body, nowS() - 301);
    const future = await deliver(body, nowS() + 301);
    expect([stale.status, future.status]).toEqual([401, 401]);
    expect(await stale.json()).toMatchObject({ error: 'signature_stale' });
    expect([await rejected('stale'), await rejected('future')]).toEqual([1, 1]);
    expect(
      (await pair.runtime.inspect().store.inbox.list({ state: 'live' })).filter((e) => JSON.stringify(e.payload).includes('stale or future')),
    ).toHaveLength(0);
  });

  /** A signed envelope of an event echo does not handle, whose payload nests `levels` arrays under `deep`. */
  const nestedDelivery = (levels: number): string =>
    JSON.stringify({ ...JSON.parse(sent.body), id: crypto.randomUUID(), event: 'service.user.created', payload: { id: 9 } }).replace(
      '"payload":{"id":9}',
      `"payload":{"id":9,"deep":${'['.repeat(levels)}${']'.repeat(levels)}}`,
    );

  it('refuses a validly signed delivery nested 100,000 levels deep with 400 before acknowledging it, and records nothing', async () => {
    const body = nestedDelivery(100_000);
    const before = await rejected('envelope');
    const res = await deliver(body, nowS());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_input', message: 'the body nests arrays and objects deeper than 64 levels' });
    expect(await rejected('envelope')).toBe(before + 1);
    const id = /"id":"([^"]+)"/.exec(body)![1];
    const stored = [
      ...(await pair.runtime.inspect().store.inbox.list({ state: 'live' })),
      ...(await pair.runtime.inspect().store.inbox.list({ state: 'dead' })),
    ];
    expect(stored.filter((e) => e.payload.deliveryId === id || e.unreadable !== undefined)).toEqual([]);
  });

  it('accepts a delivery nested exactly 64 levels deep (the envelope, its payload and 62 arrays)', async () => {
    const res = await deliver(nestedDelivery(62), nowS());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, duplicate: false });
    expect((await deliver(nestedDelivery(63), nowS())).status).toBe(400);
  });

  it('accepts a delivery whose Timestamp is 299 s old, just inside the window', async () => {
    const body = sent.body.replace(/"id":"[^"]+"/, `"id":"${crypto.randomUUID()}"`).replace('replay me', 'a retry');
    expect((await deliver(body, nowS() - 299)).status).toBe(200);
  });
});
