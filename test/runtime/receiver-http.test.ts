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
    secret = (await pair.runtime.store.secrets.get(webhookSecretName('sandbox', 'echo')))!;
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
    fetch(`${pair.runtime.url}/hooks/sandbox/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', timestamp: String(timestampS), signature: sign(secret, timestampS, body) },
      body,
    });
  const nowS = () => Math.floor(pair.clock.now() / 1000);
  const rejected = async (reason: string) => {
    const metrics = await (await fetch(`${pair.runtime.url}/metrics`)).text();
    return Number(new RegExp(`intrabot_deliveries_rejected_total\\{reason="${reason}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };

  it('acknowledges a replayed delivery id with 200 and does not handle it again', async () => {
    const res = await deliver(sent.body, nowS());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ duplicate: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(await sent.comments()).toHaveLength(1);
  });

  it('refuses a Timestamp more than 5 minutes old, and one more than 5 minutes ahead, each with its metric reason', async () => {
    const body = sent.body.replace('replay me', 'stale or future');
    const stale = await deliver(body, nowS() - 301);
    const future = await deliver(body, nowS() + 301);
    expect([stale.status, future.status]).toEqual([401, 401]);
    expect(await stale.json()).toMatchObject({ error: 'signature_stale' });
    expect([await rejected('stale'), await rejected('future')]).toEqual([1, 1]);
    expect((await pair.runtime.store.inbox.list({ state: 'live' })).filter((e) => JSON.stringify(e.payload).includes('stale or future'))).toHaveLength(0);
  });

  it('accepts a delivery whose Timestamp is 299 s old, just inside the window', async () => {
    const body = sent.body.replace(/"id":"[^"]+"/, `"id":"${crypto.randomUUID()}"`).replace('replay me', 'a retry');
    expect((await deliver(body, nowS() - 299)).status).toBe(200);
  });
});
