import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { startPair, type Pair } from '../../src/testing';
import { sign } from '../../src/webhooks/signature';

/**
 * Issue #12, defect 10, over loopback HTTP against a running runtime: error answers echo no query
 * string and no secret, whatever route family was asked; and `/metrics` grows no new series for names
 * a caller makes up.
 */
const SECRET = 'SeCrEt0123456789';

/** As curl sends it: no client-side normalisation or encoding of the path. */
function raw(base: string, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const target = new URL(base);
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    const req = httpRequest({ host: target.hostname, port: target.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('error answers of the runtime', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
  });
  afterAll(async () => pair?.close());

  it.each([
    ['no route', 'GET', `/nonexistent?token=${SECRET}`, 404],
    ['hooks, wrong method', 'GET', `/hooks/sandbox/echo?token=${SECRET}`, 404],
    ['hooks, undecodable path', 'POST', `/hooks/%zz/echo?token=${SECRET}`, 400],
    ['reports, no such bot', 'POST', `/reports/sandbox/nobody?token=${SECRET}`, 404],
    ['alerts, wrong method', 'GET', `/alerts/echo/input?token=${SECRET}`, 404],
    ['alerts, undecodable path', 'POST', `/alerts/%zz/input?token=${SECRET}`, 400],
    ['admin, no route', 'GET', `/_admin/nothing?token=${SECRET}`, 404],
    ['files, undecodable path', 'GET', `/files/%zz/x.png?token=${SECRET}`, 400],
    ['files, parameter too long', 'GET', `/files/${'a'.repeat(120)}/x.png?token=${SECRET}`, 414],
    ['files, no file name', 'GET', `/files/${SECRET}`, 404],
    ['incoming token in the path', 'POST', `/incoming/${SECRET}?token=${SECRET}`, 404],
    ['proxy, no key', 'GET', `/api/open/v1/walls?token=${SECRET}`, 401],
    ['proxy, unknown tenant', 'GET', `/t/nobody/api/open/v1/walls?token=${SECRET}`, 401],
  ])('answers %s without echoing the query string or a secret', async (_family, method, path, status) => {
    const res = await raw(pair.runtime.inspect().url!, method, path, method === 'POST' ? '{}' : undefined);
    expect(res.status).toBe(status);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('?token');
    expect(JSON.parse(res.body)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  it('answers an unknown URL with a not_found code and a list of what is served', async () => {
    const res = await raw(pair.runtime.inspect().url!, 'GET', `/nonexistent?token=${SECRET}`);
    expect(JSON.parse(res.body)).toEqual({ error: 'not_found', message: expect.stringContaining('/hooks/<tenant>/<bot>') });
  });
});

describe('/metrics labels fed by callers', () => {
  let pair: Pair;
  let secret: string;
  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
    secret = (await pair.runtime.inspect().store.secrets.get(webhookSecretName('sandbox', 'echo')))!;
  });
  afterAll(async () => pair?.close());

  const metrics = async (): Promise<string> => (await fetch(`${pair.runtime.inspect().url}/metrics`)).text();
  const series = (text: string, name: string): string[] => text.split('\n').filter((line) => line.startsWith(`${name}{`));
  const deliver = async (event: string): Promise<number> => {
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      event,
      version: 'v1',
      timestamp: Math.floor(pair.clock.now() / 1000),
      customer: pair.runtime.inspect().config.tenants[0]!.customer ?? 'sandbox',
      payload: {},
    });
    const timestamp = Math.floor(pair.clock.now() / 1000);
    const res = await fetch(`${pair.runtime.inspect().url}/hooks/sandbox/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', timestamp: String(timestamp), signature: sign(secret, timestamp, body) },
      body,
    });
    return res.status;
  };

  it('counts signed deliveries of made-up event names under event="other", one series however many names', async () => {
    for (let i = 0; i < 20; i++) expect(await deliver(`service.made-up-${i}-${SECRET}`)).toBe(200);
    expect(await deliver('service.comment.created')).toBe(200);
    const text = await metrics();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('made-up');
    expect(series(text, 'intrabot_deliveries_received_total')).toEqual([
      'intrabot_deliveries_received_total{tenant="sandbox",bot="echo",event="other",duplicate="false"} 20',
      'intrabot_deliveries_received_total{tenant="sandbox",bot="echo",event="comment.created",duplicate="false"} 1',
    ]);
  });

  it('counts a delivery received for a tenant and bot it does not know under tenant="other" and bot="other"', async () => {
    const envelope = { id: crypto.randomUUID(), event: 'service.post.created', version: 'v1', timestamp: 1, customer: 'sandbox', payload: { id: 1 } };
    await pair.runtime.receive({ tenant: `t-${SECRET}`, bot: `b-${SECRET}`, deliveryId: envelope.id, envelope: envelope as never });
    const text = await pair.platform.waitFor(metrics, (t) => series(t, 'intrabot_handler_runs_total').some((line) => line.includes('bot="other"')));
    expect(text).not.toContain(SECRET);
    expect(series(text, 'intrabot_deliveries_received_total')).toContain(
      'intrabot_deliveries_received_total{tenant="other",bot="other",event="post.created",duplicate="false"} 1',
    );
  });
});
