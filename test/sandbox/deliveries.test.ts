import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../src/api/create-api-client';
import { ApiValidationError } from '../../src/api/errors';
import type { WebhookCreate } from '../../src/api/schemas/webhook';
import { AdjustableClock } from '../../src/clock';
import { sandboxControl } from '../../src/conformance';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { createSandbox } from '../../src/sandbox/sandbox';
import { KIND } from '../../src/sandbox/state/records';
import { newUser } from '../../src/sandbox/seed/base';
import { seedForms } from '../../src/sandbox/seed/forms';
import { sendAttempt } from '../../src/sandbox/delivery/send-attempt';
import { verify } from '../../src/webhooks/signature';
import { EnvelopeSchema } from '../../src/webhooks/envelope';
import { START, startReceiver } from './deliveries-helpers';
import { useHttpSandbox, type HttpSandbox } from './http-harness';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const MODULES = [webhooksModule, messagingModule, formsModule];
const EVENTS = ['service.post.created', 'service.comment.created', 'service.achievement.awarded', 'service.formresponse.created'];

/** A receiver and an endpoint subscribed to it, made through the typed client; its full secret read back. */
async function setup(h: HttpSandbox, statuses: number[] = [200], hook: Partial<WebhookCreate> = {}) {
  receiver = await startReceiver(statuses);
  const { id } = await h.api.webhooks.create({ name: 'rx', url: receiver.url, events: EVENTS, ...hook });
  const { secret } = await h.api.webhooks.secret(id);
  return { rx: receiver, id, secret };
}

/**
 * Emits an event as the platform's other areas would. This sandbox has only the webhook, messaging
 * and forms modules, so the delivery engine is fed in process; everything else goes over HTTP.
 */
function emitPost(h: HttpSandbox, wall = 3): void {
  h.sandbox.ctx.events.emit({ event: 'post.created', payload: { id: 1, body: 'Hello', wall_id: wall }, entityIds: { wall } });
}

const settle = (h: HttpSandbox) => h.control.send('POST', '/deliveries/settle');

async function deliveries(h: HttpSandbox, query = ''): Promise<Record<string, unknown>[]> {
  return ((await h.control.send('GET', `/deliveries${query}`)) as { data: Record<string, unknown>[] }).data;
}

describe('outgoing webhook deliveries', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('posts the signed envelope with id, event, version, timestamp, customer and payload (spec: Events, Outgoing webhooks)', async () => {
    const { rx, secret } = await setup(h);
    emitPost(h);
    await rx.waitFor(1);
    const got = rx.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(
      verify({ secret, signature: got.headers.signature as string, timestamp: got.headers.timestamp as string, rawBody: got.body }, await h.control.now()),
    ).toEqual({ ok: true, timestamp: START / 1000 });
    const envelope = EnvelopeSchema.parse(JSON.parse(got.body));
    expect(envelope).toMatchObject({
      event: 'service.post.created',
      version: 'v1',
      timestamp: START / 1000,
      customer: 'sandbox',
      payload: { id: 1, wall_id: 3 },
    });
  });

  it('does not hold up the emitting request: the event is queued and sent in the background (spec: Events)', async () => {
    const { rx } = await setup(h);
    emitPost(h);
    // nothing has been received synchronously; the delivery arrives afterwards
    expect(rx.received).toHaveLength(0);
    await rx.waitFor(1);
    await settle(h);
    expect(await deliveries(h)).toHaveLength(1);
  });

  it('retries 1 and 10 minutes after the first attempt on the sandbox clock, each re-signed with a fresh Timestamp (spec: Events, Delivery attempts)', async () => {
    const { rx, secret } = await setup(h, [500, 503, 200]);
    emitPost(h);
    await settle(h);
    expect(rx.received).toHaveLength(1);
    for (const [seconds, received] of [
      [59, 1],
      [1, 2],
      [539, 2],
      [1, 3],
    ] as const) {
      await h.control.advance(seconds);
      await settle(h);
      expect(rx.received, `after ${seconds} s more`).toHaveLength(received);
    }
    const stamps = rx.received.map((r) => Number(r.headers.timestamp));
    expect(stamps).toEqual([START / 1000, START / 1000 + 60, START / 1000 + 600]);
    const ids = rx.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
    for (const r of rx.received) {
      const ts = Number(r.headers.timestamp) * 1000;
      expect(verify({ secret, signature: r.headers.signature as string, timestamp: r.headers.timestamp as string, rawBody: r.body }, ts).ok).toBe(true);
    }
    expect(new Set(rx.received.map((r) => r.headers.signature)).size).toBe(3);
    const log = await deliveries(h);
    expect(log.map((d) => [d.attempt, d.status_code, d.ok])).toEqual([
      [3, 200, true],
      [2, 503, false],
      [1, 500, false],
    ]);
  });

  it('gives up after the third attempt (spec: Events, Delivery attempts)', async () => {
    const { rx } = await setup(h, [500]);
    emitPost(h);
    await settle(h);
    await h.control.advance(3600);
    await settle(h);
    await h.control.advance(3600);
    await settle(h);
    expect(rx.received).toHaveLength(3);
  });

  it('sends the auth header per auth_type and custom headers, masking their values in the log (spec: Delivery auth headers)', async () => {
    const { rx } = await setup(h, [200], { auth_type: 'basic_auth', auth_value: 'user:pa55', custom_headers: { 'X-Tenant': 'acme-secret' } });
    emitPost(h);
    await rx.waitFor(1);
    expect(rx.received[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:pa55').toString('base64')}`);
    expect(rx.received[0]!.headers['x-tenant']).toBe('acme-secret');
    await settle(h);
    const [log] = await deliveries(h);
    const headers = log!.request_headers as Record<string, string>;
    expect(headers.Authorization).toBe('Basic ***');
    expect(headers['X-Tenant']).toBe('***');
    expect(headers.Signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends api_key auth in the named header and bearer tokens as Authorization (spec: Delivery auth headers)', async () => {
    const { rx, id } = await setup(h, [200], { auth_type: 'api_key', auth_value: 'k-123', auth_header: 'X-Api-Key' });
    emitPost(h);
    await rx.waitFor(1);
    expect(rx.received[0]!.headers['x-api-key']).toBe('k-123');
    await h.api.webhooks.update(id, { auth_type: 'bearer_token', auth_value: 'b-456' });
    emitPost(h);
    await rx.waitFor(2);
    expect(rx.received[1]!.headers.authorization).toBe('Bearer b-456');
  });

  it('filters post and comment events by wall id (spec: Outgoing webhook management, Filterable events)', async () => {
    const { rx } = await setup(h, [200], { filters: { 'service.post.created': [7], 'service.comment.created': [8] } });
    emitPost(h, 3);
    emitPost(h, 7);
    h.sandbox.ctx.events.emit({ event: 'comment.created', payload: { id: 1 }, entityIds: { wall: 7 } });
    h.sandbox.ctx.events.emit({ event: 'comment.created', payload: { id: 2 }, entityIds: { wall: 8 } });
    await settle(h);
    const got = rx.received.map((r) => JSON.parse(r.body) as { event: string; payload: { id: number; wall_id?: number } });
    expect(got.map((g) => [g.event, g.payload.wall_id ?? g.payload.id]).sort()).toEqual([
      ['service.comment.created', 2],
      ['service.post.created', 7],
    ]);
  });

  it('filters form responses by form id and awards by achievement id (spec: Outgoing webhook management; Events, achievement.awarded)', async () => {
    const { rx } = await setup(h, [200], { filters: { 'service.formresponse.created': [2], 'service.achievement.awarded': [5] } });
    const emit = h.sandbox.ctx.events.emit.bind(h.sandbox.ctx.events);
    emit({ event: 'formresponse.created', payload: { id: 10 }, entityIds: { form: 1 } });
    emit({ event: 'formresponse.created', payload: { id: 11 }, entityIds: { form: 2 } });
    emit({ event: 'achievement.awarded', payload: { id: 12 }, entityIds: { achievement: 4 } });
    emit({ event: 'achievement.awarded', payload: { id: 13 }, entityIds: { achievement: 5 } });
    await settle(h);
    expect(rx.received.map((r) => (JSON.parse(r.body) as { payload: { id: number } }).payload.id).sort()).toEqual([11, 13]);
  });

  it('sends nothing for events the endpoint did not subscribe to (spec: Outgoing webhook management)', async () => {
    const { rx } = await setup(h);
    h.sandbox.ctx.events.emit({ event: 'user.registered', payload: { id: 4 } });
    await settle(h);
    expect(rx.received).toHaveLength(0);
  });

  it('sends nothing to inactive or revoked endpoints, nor their pending retries (spec: Outgoing webhook endpoint states)', async () => {
    const { rx, id } = await setup(h, [500, 200]);
    emitPost(h);
    await settle(h);
    await h.api.webhooks.toggle(id);
    emitPost(h);
    await h.control.advance(60);
    await settle(h);
    expect(rx.received).toHaveLength(1);
    await h.api.webhooks.toggle(id);
    await h.api.webhooks.revoke(id);
    emitPost(h);
    await settle(h);
    expect(rx.received).toHaveLength(1);
  });

  it('counts deliveries and sets last_used_at on the endpoint (spec: Outgoing webhook endpoint)', async () => {
    const { rx, id } = await setup(h);
    emitPost(h);
    emitPost(h);
    await rx.waitFor(2);
    await settle(h);
    expect(await h.api.webhooks.get(id)).toMatchObject({ total_deliveries: 2, last_used_at: '2026-11-23T09:00:00+01:00' });
  });

  it('lists attempts filtered by endpoint and event, newest first (spec: Outgoing webhook endpoint, delivery logs)', async () => {
    await setup(h);
    emitPost(h);
    h.sandbox.ctx.events.emit({ event: 'comment.created', payload: { id: 9 }, entityIds: { wall: 1 } });
    await settle(h);
    const comments = await deliveries(h, '?event=service.comment.created');
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ event: 'service.comment.created', attempt: 1, status_code: 200, error: null });
    expect(await deliveries(h, '?endpoint_id=999')).toHaveLength(0);
    expect((await deliveries(h)).map((d) => d.event)).toEqual(['service.comment.created', 'service.post.created']);
  });

  it('records an unreachable receiver as a failed attempt with its error (spec: Events, Delivery attempts)', async () => {
    const { rx, id } = await setup(h);
    await rx.close();
    receiver = undefined;
    emitPost(h);
    await settle(h);
    const [log] = await deliveries(h, `?endpoint_id=${id}`);
    expect(log).toMatchObject({ ok: false, status_code: null, error: 'ECONNREFUSED' });
  });
});

describe('deliveries across a restart', () => {
  it('keeps pending retries across a restart of the sandbox on the same database (spec: Events, Delivery attempts)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-deliveries-')), 'state.db');
    const start = (at: number) =>
      createSandbox({ port: 0, clock: new AdjustableClock({ start: at, frozen: true }), dataFile: file, seed: 'empty', modules: MODULES });
    const first = await start(START);
    receiver = await startReceiver([500, 200]);
    const api = createApiClient({ baseUrl: first.baseUrl, token: first.token, clock: first.clock, retry: { attempts: 1 } });
    try {
      await api.webhooks.create({ name: 'rx', url: receiver.url, events: EVENTS });
    } finally {
      await api.close();
    }
    first.ctx.events.emit({ event: 'post.created', payload: { id: 1, body: 'Hello', wall_id: 3 }, entityIds: { wall: 3 } });
    await sandboxControl(first.baseUrl).send('POST', '/deliveries/settle');
    expect(receiver.received).toHaveLength(1);
    await first.close();
    const restarted = await start(START);
    try {
      const control = sandboxControl(restarted.baseUrl);
      await control.advance(60);
      await control.send('POST', '/deliveries/settle');
      expect(receiver.received).toHaveLength(2);
    } finally {
      await restarted.close();
    }
  });
});

describe('ping', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('sends a signed service.test with the current secret and answers {ok: true, status: delivered} (spec: Outgoing webhook management, ping)', async () => {
    const { rx, id, secret } = await setup(h, [200], { auth_type: 'bearer_token', auth_value: 'tok' });
    expect(await h.api.webhooks.ping(id)).toEqual({ ok: true, status: 'delivered' });
    const got = rx.received[0]!;
    expect((JSON.parse(got.body) as { event: string }).event).toBe('service.test');
    expect(got.headers.authorization).toBe('Bearer tok');
    expect(
      verify({ secret, signature: got.headers.signature as string, timestamp: got.headers.timestamp as string, rawBody: got.body }, await h.control.now()).ok,
    ).toBe(true);
  });

  it('answers {ok: false} with the failing status when the receiver fails (spec: Outgoing webhook management, ping)', async () => {
    const { id } = await setup(h, [500]);
    expect(await h.api.webhooks.ping(id)).toEqual({ ok: false, status: 'failed: 500' });
  });

  it('sends nothing to an inactive endpoint and answers 422 for a revoked one (spec: Outgoing webhook endpoint states)', async () => {
    const { rx, id } = await setup(h);
    await h.api.webhooks.toggle(id);
    expect(await h.api.webhooks.ping(id)).toEqual({ ok: false, status: 'inactive' });
    await h.api.webhooks.revoke(id);
    await expect(h.api.webhooks.ping(id)).rejects.toBeInstanceOf(ApiValidationError);
    expect(rx.received).toHaveLength(0);
  });
});

describe('attempt timeout', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('abandons an attempt that gets no answer within its timeout and reports a timeout (spec: Limits, Outgoing attempt timeout)', async () => {
    const rx = await startReceiver([200], { hang: true });
    receiver = rx;
    const started = Date.now();
    const result = await sendAttempt({ url: rx.url, headers: {}, body: '{}', timeoutMs: 150 });
    expect(result).toEqual({ ok: false, status_code: null, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives a hanging receiver 3 seconds of real time per attempt while the causing request answers at once (spec: Events, Delivery attempts)', async () => {
    receiver = await startReceiver([200], { hang: true });
    // this sandbox has no directory module: the respondent is written in process
    const ctx = h.sandbox.ctx;
    const user = ctx.db.insert(KIND.users, newUser(ctx, { first_name: 'Ada', last_name: 'L', email: 'ada@x.example' }));
    seedForms(ctx);
    await h.api.webhooks.create({ name: 'slow', url: receiver.url, events: ['service.formresponse.created'] });
    const started = Date.now();
    const submitted = await h.raw('POST', '/_sandbox/forms/1/responses', { body: { user_id: user.id, answers: {} }, token: null });
    expect(submitted.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000);
    await settle(h);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2_900);
    expect(elapsed).toBeLessThan(6_000);
    expect((await deliveries(h))[0]).toMatchObject({ event: 'service.formresponse.created', ok: false, error: 'timeout' });
  });
});

describe('deliveries of events the other areas emit', () => {
  const h = useHttpSandbox({ seed: 'demo', start: START });

  it('delivers service.post.created for a post created through the API, with the spec payload (spec: Events, What emits what)', async () => {
    receiver = await startReceiver();
    const wallId = h.refs.company_wall_id;
    await h.api.webhooks.create({ name: 'rx', url: receiver.url, events: ['service.post.created'], filters: { 'service.post.created': [wallId] } });
    await h.api.posts.create(wallId, { body: 'Hello company' });
    await settle(h);
    expect(receiver.received.map((x) => JSON.parse(x.body) as unknown)).toEqual([
      expect.objectContaining({
        event: 'service.post.created',
        payload: expect.objectContaining({ body: 'Hello company', wall_id: wallId, author: expect.objectContaining({ id: 1 }) }),
      }),
    ]);
  });
});
