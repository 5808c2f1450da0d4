import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { registerReceiver, type AcceptedDelivery, type RejectReason } from '../../src/webhooks/receiver';
import { sign } from '../../src/webhooks/signature';

const NOW = Date.UTC(2026, 10, 22, 9);
const SECRET = 'whsec_receiver_test_secret';

async function setup(options: { customer?: string } = {}) {
  const clock = new AdjustableClock({ start: NOW, frozen: true });
  const app = Fastify();
  const recorded: AcceptedDelivery[] = [];
  const routed: AcceptedDelivery[] = [];
  const rejected: RejectReason[] = [];
  const seen = new Set<string>();
  await registerReceiver(app, {
    path: '/hooks/:tenant/:bot',
    clock,
    steps: {
      resolve: (tenant, bot) =>
        tenant === 'acme' && bot === 'kudos' ? { tenant, bot, secret: SECRET, customer: options.customer, eventPrefix: 'service' } : undefined,
      accept: async (delivery) => {
        const duplicate = seen.has(delivery.deliveryId);
        seen.add(delivery.deliveryId);
        if (!duplicate) recorded.push(delivery);
        return { duplicate };
      },
      onAccepted: (delivery) => void routed.push(delivery),
      onRejected: (reason) => void rejected.push(reason),
    },
    acknowledgeOnly: ['test'],
    bodyLimit: 4_096,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  onTestFinished(() => app.close());
  return { app, clock, recorded, routed, rejected };
}

/** A POST over loopback, as the platform sends it; answered like `inject` (statusCode, json()). */
async function post(app: FastifyInstance, url: string, payload: string, headers: Record<string, string>) {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the receiver is not listening');
  const res = await request(`http://127.0.0.1:${address.port}${url}`, { method: 'POST', body: payload, headers });
  const text = await res.body.text();
  return { statusCode: res.statusCode, json: () => JSON.parse(text) as Record<string, unknown> & { message: string } };
}

function envelope(event = 'service.post.created', extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: randomUUID(),
    event,
    version: 'v1',
    timestamp: NOW / 1000,
    customer: 'acme',
    payload: { id: 7, body: 'hi', wall_id: 3 },
    ...extra,
  });
}

function signed(body: string, timestampS = NOW / 1000, secret = SECRET) {
  return { 'content-type': 'application/json', signature: sign(secret, timestampS, body), timestamp: String(timestampS) };
}

describe('webhook receiver', () => {
  it('records a correctly signed delivery before answering 200 and hands it on with the short event name', async () => {
    const { app, recorded, routed } = await setup();
    const body = envelope();
    const res = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect(res.statusCode).toBe(200);
    expect(recorded).toHaveLength(1);
    expect(routed[0]).toMatchObject({ tenant: 'acme', bot: 'kudos', event: 'post.created', dedupeKey: 'post.created:7' });
  });

  it('rejects a forged signature with 401 and records nothing (spec: Events, Outgoing webhooks)', async () => {
    const { app, recorded, rejected } = await setup();
    const body = envelope();
    const res = await post(app, '/hooks/acme/kudos', body, signed(body, NOW / 1000, 'not-the-secret'));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'signature_mismatch' });
    expect(recorded).toHaveLength(0);
    expect(rejected).toEqual(['mismatch']);
  });

  it('rejects a Timestamp header more than 5 minutes old or ahead (spec: Limits, Signature replay window)', async () => {
    const { app, recorded, rejected } = await setup();
    const body = envelope();
    const stale = await post(app, '/hooks/acme/kudos', body, signed(body, NOW / 1000 - 301));
    const future = await post(app, '/hooks/acme/kudos', body, signed(body, NOW / 1000 + 301));
    expect([stale.statusCode, future.statusCode]).toEqual([401, 401]);
    expect(stale.json()).toMatchObject({ error: 'signature_stale' });
    expect(rejected).toEqual(['stale', 'future']);
    expect(recorded).toHaveLength(0);
  });

  it('accepts a retry re-signed with a fresh Timestamp even when the envelope timestamp is old', async () => {
    const { app, recorded } = await setup();
    const body = envelope('service.post.created', { timestamp: NOW / 1000 - 600 });
    const res = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect(res.statusCode).toBe(200);
    expect(recorded).toHaveLength(1);
  });

  it('acknowledges a replayed delivery id with 200 without handling it again', async () => {
    const { app, routed } = await setup();
    const body = envelope();
    const first = await post(app, '/hooks/acme/kudos', body, signed(body));
    const again = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toMatchObject({ duplicate: true });
    expect(routed).toHaveLength(1);
  });

  it('refuses a delivery for another customer when the tenant names its customer', async () => {
    const { app, recorded } = await setup({ customer: 'globex' });
    const body = envelope();
    const res = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'customer_mismatch' });
    expect(recorded).toHaveLength(0);
  });

  it('answers 404 for a bot that is not deployed, 415 for a non-JSON body and 413 over the size limit', async () => {
    const { app, rejected } = await setup();
    const body = envelope();
    const unknown = await post(app, '/hooks/acme/nobody', body, signed(body));
    const text = await post(app, '/hooks/acme/kudos', 'hello', { 'content-type': 'text/plain' });
    const big = envelope('service.post.created', { payload: { id: 1, body: 'x'.repeat(5_000) } });
    const large = await post(app, '/hooks/acme/kudos', big, signed(big));
    expect([unknown.statusCode, text.statusCode, large.statusCode]).toEqual([404, 415, 413]);
    expect(rejected).toEqual(['unknown_target', 'media_type', 'too_large']);
  });

  it('counts a request Fastify refuses before the route (a Content-Length that lies) as a bad_request rejection', async () => {
    const { app, rejected, recorded } = await setup();
    const body = envelope();
    // only an in-process request can send a body whose length differs from its header; a socket would wait for the rest
    const res = await app.inject({
      method: 'POST',
      url: '/hooks/acme/kudos',
      payload: body,
      headers: { ...signed(body), 'content-length': String(body.length - 5) },
    });
    expect(res.statusCode).toBe(400);
    expect(rejected).toEqual(['bad_request']);
    expect(recorded).toHaveLength(0);
  });

  it('answers 400 naming the field when a signed body is not an envelope', async () => {
    const { app, recorded } = await setup();
    const body = JSON.stringify({ id: 'not-a-uuid', event: 'service.post.created', version: 'v1', timestamp: 1, customer: 'acme', payload: {} });
    const res = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('envelope.id');
    expect(recorded).toHaveLength(0);
  });

  it('acknowledges the ping event service.test without recording or routing it', async () => {
    const { app, recorded, routed } = await setup();
    const body = envelope('service.test', { payload: {} });
    const res = await post(app, '/hooks/acme/kudos', body, signed(body));
    expect(res.statusCode).toBe(200);
    expect(recorded).toHaveLength(0);
    expect(routed).toHaveLength(0);
  });

  it("refuses a report verified with another report's secret (a secret signs its own report only)", async () => {
    const app = Fastify();
    onTestFinished(() => app.close());
    const recorded: AcceptedDelivery[] = [];
    await registerReceiver(app, {
      path: '/reports/:tenant/:bot',
      clock: new AdjustableClock({ start: NOW, frozen: true }),
      steps: {
        resolve: (tenant, bot) => ({
          tenant,
          bot,
          secret: ['daily-secret', 'weekly-secret'],
          secretEvents: ['todoliststats.daily', 'todoliststats.weekly'],
          eventPrefix: 'service',
        }),
        accept: async (delivery) => {
          recorded.push(delivery);
          return { duplicate: false };
        },
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const weekly = envelope('service.todoliststats.weekly');
    const forged = await post(app, '/reports/acme/digest', weekly, signed(weekly, NOW / 1000, 'daily-secret'));
    const genuine = await post(app, '/reports/acme/digest', weekly, signed(weekly, NOW / 1000, 'weekly-secret'));
    expect([forged.statusCode, genuine.statusCode]).toEqual([401, 200]);
    expect(recorded.map((d) => d.event)).toEqual(['todoliststats.weekly']);
  });
});
