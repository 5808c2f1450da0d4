import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { IntrabotApi } from '../../src/api/create-api-client';
import type { WebhookCreate } from '../../src/api/schemas/webhook';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { START } from './deliveries-helpers';
import { failure, useHttpSandbox } from './http-harness';

const BASE = { name: 'hooks', url: 'https://example.com/hooks', events: ['service.post.created'] };

describe('outgoing webhook management', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: [webhooksModule, messagingModule, formsModule] });

  const createWebhook = (body: Partial<WebhookCreate> = {}, api: IntrabotApi = h.api) => api.webhooks.create({ ...BASE, ...body });
  const otherClient = () => h.clientWith(['read:webhooks', 'write:webhooks']);

  it('creates an active endpoint with a secret masked to its first 8 characters (spec: Outgoing webhook endpoint)', async () => {
    const data = await createWebhook();
    expect(data).toMatchObject({ name: 'hooks', is_active: true, events: ['service.post.created'], total_deliveries: 0, last_used_at: null, revoked_at: null });
    expect(String(data.secret)).toHaveLength(8);
    const full = (await h.api.webhooks.secret(data.id)).secret;
    expect(full.length).toBeGreaterThan(8);
    expect(full.startsWith(String(data.secret))).toBe(true);
    expect((await h.api.webhooks.get(data.id)).secret).toBe(data.secret);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', '/webhooks', { body: BASE })).status).toBe(201);
  });

  it('answers 422 naming events.<index> for an unknown event name (spec: Outgoing webhook management)', async () => {
    const error = await failure(createWebhook({ events: ['service.post.created', 'service.post.exploded'] }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'events.1' });
    expect((await h.api.webhooks.list()).data).toHaveLength(0);
  });

  it('answers 422 for an empty events list and for a plain http URL off loopback (spec: Outgoing webhook management)', async () => {
    // the client refuses both bodies before sending, so they go over raw HTTP
    const empty = await h.raw('POST', '/webhooks', { body: { ...BASE, events: [] } });
    expect(empty.status).toBe(422);
    expect(empty.json()).toMatchObject({ message: expect.stringContaining('events') });
    const http = await h.raw('POST', '/webhooks', { body: { ...BASE, url: 'http://example.com/hooks' } });
    expect(http.status).toBe(422);
    expect(http.json()).toMatchObject({ message: expect.stringContaining('url') });
  });

  it('accepts plain http on loopback addresses, a documented sandbox deviation (spec: Outgoing webhook management)', async () => {
    for (const url of ['http://127.0.0.1:3000/hooks', 'http://127.8.9.10/hooks', 'http://localhost:3000/hooks', 'http://[::1]:3000/hooks']) {
      await expect(createWebhook({ url }), url).resolves.toMatchObject({ url });
    }
  });

  it('hides endpoints from tokens other than their creator: 404 and absent from lists (spec: Outgoing webhook management)', async () => {
    const created = await createWebhook();
    const other = await otherClient();
    const calls: [string, () => Promise<unknown>][] = [
      ['GET', () => other.webhooks.get(created.id)],
      ['GET /secret', () => other.webhooks.secret(created.id)],
      ['PUT', () => other.webhooks.update(created.id, { name: 'x' })],
      ['POST /toggle', () => other.webhooks.toggle(created.id)],
      ['POST /revoke', () => other.webhooks.revoke(created.id)],
      ['POST /ping', () => other.webhooks.ping(created.id)],
    ];
    for (const [name, call] of calls) {
      const error = await failure(call());
      expect(error instanceof ApiNotFoundError, name).toBe(true);
    }
    expect((await other.webhooks.list()).data).toHaveLength(0);
    expect((await h.api.webhooks.list()).data.map((w) => w.id)).toEqual([created.id]);
  });

  it('never returns auth values and masks custom header values (spec: Outgoing webhook endpoint)', async () => {
    const data = await createWebhook({ auth_type: 'bearer_token', auth_value: 'tok-secret-123', custom_headers: { 'X-Env': 'prod-secret' } });
    expect(JSON.stringify(data)).not.toContain('tok-secret-123');
    expect(JSON.stringify(data)).not.toContain('prod-secret');
    expect(data.auth_type).toBe('bearer_token');
    expect(Object.keys(data.custom_headers as object)).toEqual(['X-Env']);
    expect(data).not.toHaveProperty('auth_value');
    // and not on the wire either, in the create answer or a read
    const created = await h.raw('POST', '/webhooks', {
      body: { ...BASE, auth_type: 'bearer_token', auth_value: 'tok-secret-456', custom_headers: { 'X-Env': 'prod-secret-2' } },
    });
    const read = await h.raw('GET', `/webhooks/${created.json<{ data: { id: number } }>().data.id}`);
    for (const text of [created.text, read.text]) {
      expect(text).not.toContain('tok-secret-456');
      expect(text).not.toContain('prod-secret-2');
    }
  });

  it('changes only sent fields on update, and sending events replaces the event rules (spec: Outgoing webhook management)', async () => {
    const created = await createWebhook({ events: ['service.post.created', 'service.comment.created'], filters: { 'service.post.created': [3] } });
    const renamed = await h.api.webhooks.update(created.id, { name: 'renamed' });
    expect(renamed).toMatchObject({
      name: 'renamed',
      url: BASE.url,
      events: ['service.post.created', 'service.comment.created'],
      filters: { 'service.post.created': [3] },
    });
    const replaced = await h.api.webhooks.update(created.id, { events: ['service.comment.deleted'] });
    expect(replaced).toMatchObject({ name: 'renamed', events: ['service.comment.deleted'], filters: {} });
  });

  it('ignores filters given for non-filterable events (spec: Outgoing webhook management, Filterable events)', async () => {
    const data = await createWebhook({
      events: ['service.user.registered', 'service.formresponse.created'],
      filters: { 'service.user.registered': [1], 'service.formresponse.created': [4] },
    });
    expect(data).toMatchObject({ filters: { 'service.formresponse.created': [4] } });
  });

  it('flips is_active on toggle (spec: Outgoing webhook endpoint states)', async () => {
    const created = await createWebhook();
    expect((await h.api.webhooks.toggle(created.id)).is_active).toBe(false);
    expect((await h.api.webhooks.toggle(created.id)).is_active).toBe(true);
  });

  it('revokes for good: revoked_at set, record kept, later toggle and update answer 422 (spec: Outgoing webhook endpoint states)', async () => {
    const created = await createWebhook();
    expect((await h.api.webhooks.revoke(created.id)).revoked_at).toBe('2026-11-23T09:00:00+01:00');
    await expect(h.api.webhooks.get(created.id)).resolves.toMatchObject({ id: created.id });
    await expect(h.api.webhooks.toggle(created.id)).rejects.toBeInstanceOf(ApiValidationError);
    await expect(h.api.webhooks.update(created.id, { name: 'back' })).rejects.toBeInstanceOf(ApiValidationError);
    expect(await h.api.webhooks.get(created.id)).toMatchObject({ name: 'hooks', revoked_at: '2026-11-23T09:00:00+01:00' });
  });

  it('needs read:webhooks to list and write:webhooks to create (spec: Outgoing webhook management)', async () => {
    const reader = await h.clientWith(['read:webhooks']);
    await expect(reader.webhooks.list()).resolves.toMatchObject({ data: [] });
    const error = await failure(createWebhook({}, reader));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:webhooks' });
  });
});
