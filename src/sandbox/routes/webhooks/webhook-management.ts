import { randomBytes } from 'node:crypto';
import { WebhookCreateSchema, WebhookUpdateSchema } from '../../../api/schemas/webhook';
import type { SandboxContext } from '../../context';
import { deliveryEngineFor } from '../../delivery/engine-registry';
import { fullEventName } from '../../delivery/endpoint-matching';
import { DELIVERY_KIND, type DeliveryAttemptRecord, type WebhookEndpointRecord } from '../../delivery/records';
import { attemptStatusText } from '../../delivery/send-attempt';
import type { ApiRouter } from '../../http/api-router';
import type { AuthInfo } from '../../http/auth';
import { readPageQuery, paginate } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { eventRules } from './event-rules';
import { serializeWebhook } from './serialize-webhook';

type Params = { id?: string };

/** spec: Outgoing webhook management — "Endpoints belong to the token that created them": others get 404. */
function ownEndpoint(ctx: SandboxContext, auth: AuthInfo, rawId: unknown): WebhookEndpointRecord {
  const endpoint = ctx.db.get<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, idParam(rawId));
  if (!endpoint || endpoint.token_id !== auth.token.id) throw notFound();
  return endpoint;
}

/**
 * A revoked endpoint is permanent (spec: Outgoing webhook endpoint, "revoked: Permanent"); the spec
 * does not say how a later toggle or update answers: the sandbox answers 422.
 */
function assertNotRevoked(endpoint: WebhookEndpointRecord): void {
  if (endpoint.revoked_at !== null) throw validationError('id', 'the webhook endpoint was revoked and cannot change');
}

function create(ctx: SandboxContext, auth: AuthInfo, body: unknown): WebhookEndpointRecord {
  const input = validate(WebhookCreateSchema, body);
  const rules = eventRules(input.events.map(String), input.filters);
  const now = ctx.now();
  return ctx.db.insert(DELIVERY_KIND.webhooks, {
    token_id: auth.token.id,
    name: input.name,
    url: input.url,
    // spec: Outgoing webhook endpoint — "Active immediately; a signing secret is issued."
    is_active: true,
    ...rules,
    secret: randomBytes(32).toString('hex'),
    auth_type: input.auth_type ?? null,
    auth_value: input.auth_type ? (input.auth_value ?? null) : null,
    auth_header: input.auth_type === 'api_key' ? (input.auth_header ?? null) : null,
    custom_headers: input.custom_headers ?? null,
    total_deliveries: 0,
    last_used_at: null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  } satisfies Omit<WebhookEndpointRecord, 'id'>);
}

/** spec: Outgoing webhook management, PUT — only sent fields change; `events` replaces the event rules. */
function update(ctx: SandboxContext, endpoint: WebhookEndpointRecord, body: unknown): WebhookEndpointRecord {
  const input = validate(WebhookUpdateSchema, body);
  assertNotRevoked(endpoint);
  const patch: Partial<WebhookEndpointRecord> = { updated_at: ctx.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.url !== undefined) patch.url = input.url;
  if (input.events !== undefined) Object.assign(patch, eventRules(input.events, input.filters));
  else if (input.filters !== undefined) patch.filters = eventRules(endpoint.events, input.filters).filters;
  if (input.auth_type !== undefined) patch.auth_type = input.auth_type;
  if (input.auth_value !== undefined) patch.auth_value = input.auth_value;
  if (input.auth_header !== undefined) patch.auth_header = input.auth_header;
  if (input.custom_headers !== undefined) patch.custom_headers = input.custom_headers;
  const next = { ...endpoint, ...patch };
  if (next.auth_type && next.auth_value === null) throw validationError('auth_value', `auth_value is required with auth_type ${next.auth_type}`);
  if (next.auth_type === 'api_key' && !next.auth_header) throw validationError('auth_header', 'auth_header is required with auth_type api_key');
  return ctx.db.update<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, endpoint.id, patch) ?? next;
}

/** spec: Outgoing webhook management, ping — one signed `service.test` with the current secret, auth and headers. */
async function ping(ctx: SandboxContext, endpoint: WebhookEndpointRecord): Promise<{ ok: boolean; status: string }> {
  assertNotRevoked(endpoint);
  // spec: Outgoing webhook endpoint — an inactive endpoint gets no deliveries, the test one included
  if (!endpoint.is_active) return { ok: false, status: 'inactive' };
  const engine = deliveryEngineFor(ctx);
  const payload = { message: 'Test delivery from the sandbox.', webhook: { id: endpoint.id, name: endpoint.name } }; // spec: not shown
  const job = engine.dispatch({ targetKind: 'webhook', targetId: endpoint.id, event: fullEventName('test'), payload, retry: false });
  await engine.run(job.id);
  const attempt = ctx.db.filter<DeliveryAttemptRecord>(DELIVERY_KIND.attempts, (a) => a.job_id === job.id).at(-1);
  if (!attempt) return { ok: false, status: 'failed: not sent' };
  return { ok: attempt.ok, status: attemptStatusText(attempt) };
}

export function registerWebhookManagement(router: ApiRouter, ctx: SandboxContext): void {
  const serialize = (endpoint: WebhookEndpointRecord): Record<string, unknown> => serializeWebhook(ctx, endpoint);

  router.route('GET', '/webhooks', 'read:webhooks', (request, auth) => {
    const query = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const own = ctx.db.filter<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, (e) => e.token_id === auth.token.id);
    return paginate(request, own, query, serialize);
  });
  router.route('GET', '/webhooks/{id}', 'read:webhooks', (request, auth) => ({ data: serialize(ownEndpoint(ctx, auth, (request.params as Params).id)) }));
  // spec: Outgoing webhook management — the one place the whole signing secret is returned
  router.route('GET', '/webhooks/{id}/secret', 'read:webhooks', (request, auth) => ({
    data: { secret: ownEndpoint(ctx, auth, (request.params as Params).id).secret },
  }));
  router.route('POST', '/webhooks', 'write:webhooks', (request, auth) => ({ data: serialize(create(ctx, auth, request.body)) }), { status: 201 });
  router.route('PUT', '/webhooks/{id}', 'write:webhooks', (request, auth) => {
    const endpoint = ownEndpoint(ctx, auth, (request.params as Params).id);
    return { data: serialize(update(ctx, endpoint, request.body)) };
  });
  router.route('POST', '/webhooks/{id}/toggle', 'write:webhooks', (request, auth) => {
    const endpoint = ownEndpoint(ctx, auth, (request.params as Params).id);
    assertNotRevoked(endpoint);
    const updated = ctx.db.update<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, endpoint.id, { is_active: !endpoint.is_active, updated_at: ctx.now() });
    return { data: serialize(updated ?? endpoint) };
  });
  // spec: Outgoing webhook endpoint — revoke is permanent; the record and its delivery logs are kept
  router.route('POST', '/webhooks/{id}/revoke', 'write:webhooks', (request, auth) => {
    const endpoint = ownEndpoint(ctx, auth, (request.params as Params).id);
    if (endpoint.revoked_at !== null) return { data: serialize(endpoint) };
    const now = ctx.now();
    const updated = ctx.db.update<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, endpoint.id, { revoked_at: now, is_active: false, updated_at: now });
    return { data: serialize(updated ?? endpoint) };
  });
  router.route('POST', '/webhooks/{id}/ping', 'write:webhooks', (request, auth) => ping(ctx, ownEndpoint(ctx, auth, (request.params as Params).id)));
}
