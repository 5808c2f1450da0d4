import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';
import { KIND } from '../../src/sandbox/state/records';
import { newUser } from '../../src/sandbox/seed/base';
import { seedForms } from '../../src/sandbox/seed/forms';
import { sendAttempt } from '../../src/sandbox/delivery/send-attempt';
import { verify } from '../../src/webhooks/signature';
import { EnvelopeSchema } from '../../src/webhooks/envelope';
import { API, AUTH, START, buildTestSandbox, startReceiver } from './deliveries-helpers';

type Sandbox = ReturnType<typeof buildTestSandbox>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let sandbox: Sandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await sandbox?.app.close();
  sandbox = undefined;
  receiver = undefined;
});

async function setup(statuses: number[] = [200], hook: Record<string, unknown> = {}, db?: SandboxDb) {
  sandbox = buildTestSandbox(db ? { db } : {});
  if (db) sandbox.reset({ seed: 'empty' });
  receiver = await startReceiver(statuses);
  const res = await sandbox.app.inject({
    method: 'POST',
    url: `${API}/webhooks`,
    headers: AUTH,
    payload: { name: 'rx', url: receiver.url, events: ['service.post.created', 'service.comment.created', 'service.achievement.awarded', 'service.formresponse.created'], ...hook },
  });
  expect(res.statusCode).toBe(201);
  const id = (res.json() as { data: { id: number } }).data.id;
  const secret = (await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks/${id}/secret`, headers: AUTH })).json() as { data: { secret: string } };
  return { s: sandbox, rx: receiver, id, secret: secret.data.secret };
}

function emitPost(s: Sandbox, wall = 3): void {
  s.ctx.events.emit({ event: 'post.created', payload: { id: 1, body: 'Hello', wall_id: wall }, entityIds: { wall } });
}

async function settle(s: Sandbox) {
  await s.app.inject({ method: 'POST', url: '/_sandbox/deliveries/settle' });
}

async function deliveries(s: Sandbox, query = ''): Promise<Record<string, unknown>[]> {
  return ((await s.app.inject({ method: 'GET', url: `/_sandbox/deliveries${query}` })).json() as { data: Record<string, unknown>[] }).data;
}

describe('outgoing webhook deliveries', () => {
  it('posts the signed envelope with id, event, version, timestamp, customer and payload (spec: Events, Outgoing webhooks)', async () => {
    const { s, rx, secret } = await setup();
    emitPost(s);
    await rx.waitFor(1);
    const got = rx.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify({ secret, signature: got.headers.signature as string, timestamp: got.headers.timestamp as string, rawBody: got.body }, s.clock.now())).toEqual({ ok: true, timestamp: START / 1000 });
    const envelope = EnvelopeSchema.parse(JSON.parse(got.body));
    expect(envelope).toMatchObject({ event: 'service.post.created', version: 'v1', timestamp: START / 1000, customer: 'sandbox', payload: { id: 1, wall_id: 3 } });
  });

  it('does not hold up the emitting request: the event is queued and sent in the background (spec: Events)', async () => {
    const { s, rx } = await setup();
    emitPost(s);
    // nothing has been received synchronously; the delivery arrives afterwards
    expect(rx.received).toHaveLength(0);
    await rx.waitFor(1);
    await settle(s);
    expect(await deliveries(s)).toHaveLength(1);
  });

  it('retries 1 and 10 minutes after the first attempt on the sandbox clock, each re-signed with a fresh Timestamp (spec: Events, Delivery attempts)', async () => {
    const { s, rx, secret } = await setup([500, 503, 200]);
    emitPost(s);
    await settle(s);
    expect(rx.received).toHaveLength(1);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 59 } });
    await settle(s);
    expect(rx.received).toHaveLength(1);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 1 } });
    await settle(s);
    expect(rx.received).toHaveLength(2);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 539 } });
    await settle(s);
    expect(rx.received).toHaveLength(2);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 1 } });
    await settle(s);
    expect(rx.received).toHaveLength(3);
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
    const log = await deliveries(s);
    expect(log.map((d) => [d.attempt, d.status_code, d.ok])).toEqual([[3, 200, true], [2, 503, false], [1, 500, false]]);
  });

  it('gives up after the third attempt (spec: Events, Delivery attempts)', async () => {
    const { s, rx } = await setup([500]);
    emitPost(s);
    await settle(s);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 3600 } });
    await settle(s);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 3600 } });
    await settle(s);
    expect(rx.received).toHaveLength(3);
  });

  it('keeps pending retries across a restart of the sandbox on the same database (spec: Events, Delivery attempts)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-deliveries-')), 'state.db');
    const { s, rx } = await setup([500, 200], {}, new SandboxDb({ file }));
    emitPost(s);
    await settle(s);
    await s.app.close();
    s.ctx.db.close();
    const restarted = buildTestSandbox({ db: new SandboxDb({ file }), start: s.clock.now() });
    sandbox = restarted;
    restarted.clock.advance(60_000);
    restarted.ctx.tick();
    await settle(restarted);
    expect(rx.received).toHaveLength(2);
  });

  it('sends the auth header per auth_type and custom headers, masking their values in the log (spec: Delivery auth headers)', async () => {
    const { s, rx } = await setup([200], { auth_type: 'basic_auth', auth_value: 'user:pa55', custom_headers: { 'X-Tenant': 'acme-secret' } });
    emitPost(s);
    await rx.waitFor(1);
    expect(rx.received[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:pa55').toString('base64')}`);
    expect(rx.received[0]!.headers['x-tenant']).toBe('acme-secret');
    await settle(s);
    const [log] = await deliveries(s);
    const headers = log!.request_headers as Record<string, string>;
    expect(headers.Authorization).toBe('Basic ***');
    expect(headers['X-Tenant']).toBe('***');
    expect(headers.Signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends api_key auth in the named header and bearer tokens as Authorization (spec: Delivery auth headers)', async () => {
    const { s, rx, id } = await setup([200], { auth_type: 'api_key', auth_value: 'k-123', auth_header: 'X-Api-Key' });
    emitPost(s);
    await rx.waitFor(1);
    expect(rx.received[0]!.headers['x-api-key']).toBe('k-123');
    await s.app.inject({ method: 'PUT', url: `${API}/webhooks/${id}`, headers: AUTH, payload: { auth_type: 'bearer_token', auth_value: 'b-456' } });
    emitPost(s);
    await rx.waitFor(2);
    expect(rx.received[1]!.headers.authorization).toBe('Bearer b-456');
  });

  it('filters post and comment events by wall id (spec: Outgoing webhook management, Filterable events)', async () => {
    const { s, rx } = await setup([200], { filters: { 'service.post.created': [7], 'service.comment.created': [8] } });
    emitPost(s, 3);
    emitPost(s, 7);
    s.ctx.events.emit({ event: 'comment.created', payload: { id: 1 }, entityIds: { wall: 7 } });
    s.ctx.events.emit({ event: 'comment.created', payload: { id: 2 }, entityIds: { wall: 8 } });
    await settle(s);
    const got = rx.received.map((r) => JSON.parse(r.body) as { event: string; payload: { id: number; wall_id?: number } });
    expect(got.map((g) => [g.event, g.payload.wall_id ?? g.payload.id]).sort()).toEqual([['service.comment.created', 2], ['service.post.created', 7]]);
  });

  it('filters form responses by form id and awards by achievement id (spec: Outgoing webhook management; Events, achievement.awarded)', async () => {
    const { s, rx } = await setup([200], { filters: { 'service.formresponse.created': [2], 'service.achievement.awarded': [5] } });
    s.ctx.events.emit({ event: 'formresponse.created', payload: { id: 10 }, entityIds: { form: 1 } });
    s.ctx.events.emit({ event: 'formresponse.created', payload: { id: 11 }, entityIds: { form: 2 } });
    s.ctx.events.emit({ event: 'achievement.awarded', payload: { id: 12 }, entityIds: { achievement: 4 } });
    s.ctx.events.emit({ event: 'achievement.awarded', payload: { id: 13 }, entityIds: { achievement: 5 } });
    await settle(s);
    expect(rx.received.map((r) => (JSON.parse(r.body) as { payload: { id: number } }).payload.id).sort()).toEqual([11, 13]);
  });

  it('sends nothing for events the endpoint did not subscribe to (spec: Outgoing webhook management)', async () => {
    const { s, rx } = await setup();
    s.ctx.events.emit({ event: 'user.registered', payload: { id: 4 } });
    await settle(s);
    expect(rx.received).toHaveLength(0);
  });

  it('sends nothing to inactive or revoked endpoints, nor their pending retries (spec: Outgoing webhook endpoint states)', async () => {
    const { s, rx, id } = await setup([500, 200]);
    emitPost(s);
    await settle(s);
    await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/toggle`, headers: AUTH });
    emitPost(s);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 60 } });
    await settle(s);
    expect(rx.received).toHaveLength(1);
    await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/toggle`, headers: AUTH });
    await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/revoke`, headers: AUTH });
    emitPost(s);
    await settle(s);
    expect(rx.received).toHaveLength(1);
  });

  it('counts deliveries and sets last_used_at on the endpoint (spec: Outgoing webhook endpoint)', async () => {
    const { s, rx, id } = await setup();
    emitPost(s);
    emitPost(s);
    await rx.waitFor(2);
    await settle(s);
    const res = await s.app.inject({ method: 'GET', url: `${API}/webhooks/${id}`, headers: AUTH });
    expect((res.json() as { data: unknown }).data).toMatchObject({ total_deliveries: 2, last_used_at: '2026-11-23T09:00:00+01:00' });
  });

  it('lists attempts filtered by endpoint and event, newest first (spec: Outgoing webhook endpoint, delivery logs)', async () => {
    const { s } = await setup();
    emitPost(s);
    s.ctx.events.emit({ event: 'comment.created', payload: { id: 9 }, entityIds: { wall: 1 } });
    await settle(s);
    const comments = await deliveries(s, '?event=service.comment.created');
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ event: 'service.comment.created', attempt: 1, status_code: 200, error: null });
    expect(await deliveries(s, '?endpoint_id=999')).toHaveLength(0);
    expect((await deliveries(s)).map((d) => d.event)).toEqual(['service.comment.created', 'service.post.created']);
  });

  it('records an unreachable receiver as a failed attempt with its error (spec: Events, Delivery attempts)', async () => {
    const { s, rx, id } = await setup();
    await rx.close();
    receiver = undefined;
    emitPost(s);
    await settle(s);
    const [log] = await deliveries(s, `?endpoint_id=${id}`);
    expect(log).toMatchObject({ ok: false, status_code: null, error: 'ECONNREFUSED' });
  });
});

describe('ping', () => {
  it('sends a signed service.test with the current secret and answers {ok: true, status: delivered} (spec: Outgoing webhook management, ping)', async () => {
    const { s, rx, id, secret } = await setup([200], { auth_type: 'bearer_token', auth_value: 'tok' });
    const res = await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/ping`, headers: AUTH });
    expect(res.json()).toEqual({ ok: true, status: 'delivered' });
    const got = rx.received[0]!;
    expect((JSON.parse(got.body) as { event: string }).event).toBe('service.test');
    expect(got.headers.authorization).toBe('Bearer tok');
    expect(verify({ secret, signature: got.headers.signature as string, timestamp: got.headers.timestamp as string, rawBody: got.body }, s.clock.now()).ok).toBe(true);
  });

  it('answers {ok: false} with the failing status when the receiver fails (spec: Outgoing webhook management, ping)', async () => {
    const { s, id } = await setup([500]);
    const res = await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/ping`, headers: AUTH });
    expect(res.json()).toEqual({ ok: false, status: 'failed: 500' });
  });
});

describe('ping of inactive and revoked endpoints', () => {
  it('sends nothing to an inactive endpoint and answers 422 for a revoked one (spec: Outgoing webhook endpoint states)', async () => {
    const { s, rx, id } = await setup();
    await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/toggle`, headers: AUTH });
    const inactive = await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/ping`, headers: AUTH });
    expect(inactive.json()).toEqual({ ok: false, status: 'inactive' });
    await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/revoke`, headers: AUTH });
    expect((await s.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/ping`, headers: AUTH })).statusCode).toBe(422);
    expect(rx.received).toHaveLength(0);
  });
});

describe('attempt timeout', () => {
  it('abandons an attempt that gets no answer within its timeout and reports a timeout (spec: Limits, Outgoing attempt timeout)', async () => {
    const rx = await startReceiver([200], { hang: true });
    receiver = rx;
    const started = Date.now();
    const result = await sendAttempt({ url: rx.url, headers: {}, body: '{}', timeoutMs: 150 });
    expect(result).toEqual({ ok: false, status_code: null, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives a hanging receiver 3 seconds of real time per attempt while the causing request answers at once (spec: Events, Delivery attempts)', async () => {
    sandbox = buildTestSandbox();
    receiver = await startReceiver([200], { hang: true });
    const user = sandbox.ctx.db.insert(KIND.users, newUser(sandbox.ctx, { first_name: 'Ada', last_name: 'L', email: 'ada@x.example' }));
    seedForms(sandbox.ctx);
    await sandbox.app.inject({ method: 'POST', url: `${API}/webhooks`, headers: AUTH, payload: { name: 'slow', url: receiver.url, events: ['service.formresponse.created'] } });
    const started = Date.now();
    const submitted = await sandbox.app.inject({ method: 'POST', url: '/_sandbox/forms/1/responses', payload: { user_id: user.id, answers: {} } });
    expect(submitted.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000);
    await settle(sandbox);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2_900);
    expect(elapsed).toBeLessThan(6_000);
    expect((await deliveries(sandbox))[0]).toMatchObject({ event: 'service.formresponse.created', ok: false, error: 'timeout' });
  });
});

describe('deliveries of events the other areas emit', () => {
  it('delivers service.post.created for a post created through the API, with the spec payload (spec: Events, What emits what)', async () => {
    const { SANDBOX_MODULES } = await import('../../src/sandbox/modules');
    const { directoryRefs } = await import('../../src/sandbox/seed/directory-refs');
    sandbox = buildTestSandbox({ seed: 'demo', modules: SANDBOX_MODULES });
    receiver = await startReceiver();
    const wallId = directoryRefs(sandbox.ctx)!.company_wall_id;
    await sandbox.app.inject({ method: 'POST', url: `${API}/webhooks`, headers: AUTH, payload: { name: 'rx', url: receiver.url, events: ['service.post.created'], filters: { 'service.post.created': [wallId] } } });
    const created = await sandbox.app.inject({ method: 'POST', url: `${API}/walls/${wallId}/posts`, headers: AUTH, payload: { body: 'Hello company' } });
    expect(created.statusCode).toBeLessThan(300);
    await settle(sandbox);
    expect(rx(receiver)).toEqual([expect.objectContaining({ event: 'service.post.created', payload: expect.objectContaining({ body: 'Hello company', wall_id: wallId, author: expect.objectContaining({ id: 1 }) }) })]);
  });
});

function rx(r: Receiver): unknown[] {
  return r.received.map((x) => JSON.parse(x.body) as unknown);
}
