import { afterEach, describe, expect, it } from 'vitest';
import { API, AUTH, buildTestSandbox } from './deliveries-helpers';

type Sandbox = ReturnType<typeof buildTestSandbox>;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.app.close();
  sandbox = undefined;
});

const BASE = { name: 'hooks', url: 'https://example.com/hooks', events: ['service.post.created'] };

async function createWebhook(s: Sandbox, body: Record<string, unknown> = {}, headers = AUTH) {
  return s.app.inject({ method: 'POST', url: `${API}/webhooks`, headers, payload: { ...BASE, ...body } });
}

async function otherToken(s: Sandbox): Promise<Record<string, string>> {
  const res = await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'other', scopes: ['read:webhooks', 'write:webhooks'] } });
  return { authorization: `Bearer ${(res.json() as { token: string }).token}` };
}

describe('outgoing webhook management', () => {
  it('creates an active endpoint with a secret masked to its first 8 characters (spec: Outgoing webhook endpoint)', async () => {
    sandbox = buildTestSandbox();
    const res = await createWebhook(sandbox);
    expect(res.statusCode).toBe(201);
    const { data } = res.json() as { data: Record<string, unknown> };
    expect(data).toMatchObject({ name: 'hooks', is_active: true, events: ['service.post.created'], total_deliveries: 0, last_used_at: null, revoked_at: null });
    expect(String(data.secret)).toHaveLength(8);
    const secret = await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks/${String(data.id)}/secret`, headers: AUTH });
    const full = (secret.json() as { data: { secret: string } }).data.secret;
    expect(full.length).toBeGreaterThan(8);
    expect(full.startsWith(String(data.secret))).toBe(true);
    const again = await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks/${String(data.id)}`, headers: AUTH });
    expect((again.json() as { data: { secret: string } }).data.secret).toBe(data.secret);
  });

  it('answers 422 naming events.<index> for an unknown event name (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    const res = await createWebhook(sandbox, { events: ['service.post.created', 'service.post.exploded'] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('events.1') });
    const list = await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks`, headers: AUTH });
    expect((list.json() as { data: unknown[] }).data).toHaveLength(0);
  });

  it('answers 422 for an empty events list and for a plain http URL off loopback (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    expect((await createWebhook(sandbox, { events: [] })).json()).toMatchObject({ message: expect.stringContaining('events') });
    const http = await createWebhook(sandbox, { url: 'http://example.com/hooks' });
    expect(http.statusCode).toBe(422);
    expect(http.json()).toMatchObject({ message: expect.stringContaining('url') });
  });

  it('accepts plain http on loopback addresses, a documented sandbox deviation (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    for (const url of ['http://127.0.0.1:3000/hooks', 'http://127.8.9.10/hooks', 'http://localhost:3000/hooks', 'http://[::1]:3000/hooks']) {
      expect((await createWebhook(sandbox, { url })).statusCode).toBe(201);
    }
  });

  it('hides endpoints from tokens other than their creator: 404 and absent from lists (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    const created = (await createWebhook(sandbox)).json() as { data: { id: number } };
    const other = await otherToken(sandbox);
    for (const [method, path] of [['GET', ''], ['GET', '/secret'], ['PUT', ''], ['POST', '/toggle'], ['POST', '/revoke'], ['POST', '/ping']] as const) {
      const res = await sandbox.app.inject({ method, url: `${API}/webhooks/${created.data.id}${path}`, headers: other, ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    const list = await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks`, headers: other });
    expect((list.json() as { data: unknown[] }).data).toHaveLength(0);
    const mine = await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks`, headers: AUTH });
    expect((mine.json() as { data: { id: number }[] }).data.map((w) => w.id)).toEqual([created.data.id]);
  });

  it('never returns auth values and masks custom header values (spec: Outgoing webhook endpoint)', async () => {
    sandbox = buildTestSandbox();
    const res = await createWebhook(sandbox, { auth_type: 'bearer_token', auth_value: 'tok-secret-123', custom_headers: { 'X-Env': 'prod-secret' } });
    expect(res.body).not.toContain('tok-secret-123');
    expect(res.body).not.toContain('prod-secret');
    const { data } = res.json() as { data: Record<string, unknown> };
    expect(data.auth_type).toBe('bearer_token');
    expect(Object.keys(data.custom_headers as object)).toEqual(['X-Env']);
    expect(data).not.toHaveProperty('auth_value');
  });

  it('changes only sent fields on update, and sending events replaces the event rules (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    const created = (await createWebhook(sandbox, { events: ['service.post.created', 'service.comment.created'], filters: { 'service.post.created': [3] } })).json() as { data: { id: number } };
    const url = `${API}/webhooks/${created.data.id}`;
    const renamed = await sandbox.app.inject({ method: 'PUT', url, headers: AUTH, payload: { name: 'renamed' } });
    expect((renamed.json() as { data: unknown }).data).toMatchObject({ name: 'renamed', url: BASE.url, events: ['service.post.created', 'service.comment.created'], filters: { 'service.post.created': [3] } });
    const replaced = await sandbox.app.inject({ method: 'PUT', url, headers: AUTH, payload: { events: ['service.comment.deleted'] } });
    expect((replaced.json() as { data: unknown }).data).toMatchObject({ name: 'renamed', events: ['service.comment.deleted'], filters: {} });
  });

  it('ignores filters given for non-filterable events (spec: Outgoing webhook management, Filterable events)', async () => {
    sandbox = buildTestSandbox();
    const res = await createWebhook(sandbox, {
      events: ['service.user.registered', 'service.formresponse.created'],
      filters: { 'service.user.registered': [1], 'service.formresponse.created': [4] },
    });
    expect((res.json() as { data: unknown }).data).toMatchObject({ filters: { 'service.formresponse.created': [4] } });
  });

  it('flips is_active on toggle (spec: Outgoing webhook endpoint states)', async () => {
    sandbox = buildTestSandbox();
    const created = (await createWebhook(sandbox)).json() as { data: { id: number } };
    const first = await sandbox.app.inject({ method: 'POST', url: `${API}/webhooks/${created.data.id}/toggle`, headers: AUTH });
    expect((first.json() as { data: { is_active: boolean } }).data.is_active).toBe(false);
    const second = await sandbox.app.inject({ method: 'POST', url: `${API}/webhooks/${created.data.id}/toggle`, headers: AUTH });
    expect((second.json() as { data: { is_active: boolean } }).data.is_active).toBe(true);
  });

  it('revokes for good: revoked_at set, record kept, later toggle and update answer 422 (spec: Outgoing webhook endpoint states)', async () => {
    sandbox = buildTestSandbox();
    const created = (await createWebhook(sandbox)).json() as { data: { id: number } };
    const url = `${API}/webhooks/${created.data.id}`;
    const revoked = await sandbox.app.inject({ method: 'POST', url: `${url}/revoke`, headers: AUTH });
    expect((revoked.json() as { data: { revoked_at: string | null } }).data.revoked_at).toBe('2026-11-23T09:00:00+01:00');
    expect((await sandbox.app.inject({ method: 'GET', url, headers: AUTH })).statusCode).toBe(200);
    expect((await sandbox.app.inject({ method: 'POST', url: `${url}/toggle`, headers: AUTH })).statusCode).toBe(422);
    expect((await sandbox.app.inject({ method: 'PUT', url, headers: AUTH, payload: { name: 'back' } })).statusCode).toBe(422);
    const after = await sandbox.app.inject({ method: 'GET', url, headers: AUTH });
    expect((after.json() as { data: unknown }).data).toMatchObject({ name: 'hooks', revoked_at: '2026-11-23T09:00:00+01:00' });
  });

  it('needs read:webhooks to list and write:webhooks to create (spec: Outgoing webhook management)', async () => {
    sandbox = buildTestSandbox();
    const res = await sandbox.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'reader', scopes: ['read:webhooks'] } });
    const headers = { authorization: `Bearer ${(res.json() as { token: string }).token}` };
    expect((await sandbox.app.inject({ method: 'GET', url: `${API}/webhooks`, headers })).statusCode).toBe(200);
    const denied = await createWebhook(sandbox, {}, headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ message: expect.stringContaining('write:webhooks') });
  });
});
