import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IncomingWebhookCreateSchema, IncomingWebhookUpdateSchema } from '../../../api/schemas/incoming-webhook';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import type { AuthInfo } from '../../http/auth';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { findUser } from '../../serialize/user';
import { KIND } from '../../state/records';
import { isReachableEmployee, requireBot } from './messages';
import { MESSAGING_KIND, type IncomingWebhookRecord } from './messaging-records';

type Targets = Pick<IncomingWebhookRecord, 'wall_id' | 'chat_id' | 'user_id' | 'bot_user_id'>;
type Params = { id?: string };

/** spec: not shown — the management record; never the URL or its token. */
export function serializeIncomingWebhook(ctx: SandboxContext, w: IncomingWebhookRecord): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    action: w.action,
    wall_id: w.wall_id,
    chat_id: w.chat_id,
    user_id: w.user_id,
    bot_user_id: w.bot_user_id,
    is_active: w.revoked_at === null,
    revoked_at: ctx.isoOrNull(w.revoked_at),
    created_at: ctx.iso(w.created_at),
    updated_at: ctx.iso(w.updated_at),
  };
}

/** The targets must exist: the wall, the chat room, a registered recipient, a bot sender. */
function checkTargets(ctx: SandboxContext, t: Partial<Targets>): void {
  if (t.wall_id != null && !ctx.db.get(KIND.walls, t.wall_id)) throw validationError('wall_id', `wall ${t.wall_id} does not exist`);
  if (t.chat_id != null && !ctx.db.get(MESSAGING_KIND.chats, t.chat_id)) throw validationError('chat_id', `chat ${t.chat_id} does not exist`);
  if (t.user_id != null && !isReachableEmployee(findUser(ctx, t.user_id))) throw validationError('user_id', `user ${t.user_id} is not a registered user`);
  if (t.bot_user_id != null) requireBot(ctx, t.bot_user_id);
}

function ownWebhook(ctx: SandboxContext, auth: AuthInfo, raw: unknown): IncomingWebhookRecord {
  const hook = ctx.db.get<IncomingWebhookRecord>(MESSAGING_KIND.incomingWebhooks, idParam(raw));
  if (!hook || hook.token_id !== auth.token.id) throw notFound();
  return hook;
}

/** The trigger URL: `{base_url}/api/open/v1/incoming/{token}` (spec: Incoming webhooks). */
function triggerUrl(request: FastifyRequest, token: string): string {
  return `${request.protocol}://${request.host}/api/open/v1/incoming/${token}`;
}

function create(ctx: SandboxContext, auth: AuthInfo, request: FastifyRequest): Record<string, unknown> {
  const input = validate(IncomingWebhookCreateSchema, request.body);
  checkTargets(ctx, input);
  const now = ctx.now();
  const hook = ctx.db.insert(MESSAGING_KIND.incomingWebhooks, {
    token_id: auth.token.id,
    name: input.name,
    action: input.action,
    wall_id: input.wall_id ?? null,
    chat_id: input.chat_id ?? null,
    user_id: input.user_id ?? null,
    bot_user_id: input.bot_user_id ?? null,
    author_id: input.bot_user_id ?? auth.actor.id,
    token: randomBytes(24).toString('base64url'),
    revoked_at: null,
    created_at: now,
    updated_at: now,
  } satisfies Omit<IncomingWebhookRecord, 'id'>);
  // spec: Incoming webhooks — "the trigger URL and token are returned once on create"
  return { ...serializeIncomingWebhook(ctx, hook), url: triggerUrl(request, hook.token), token: hook.token };
}

function update(ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown): IncomingWebhookRecord {
  const input = validate(IncomingWebhookUpdateSchema, body);
  if (hook.revoked_at !== null) throw validationError('id', 'the incoming webhook was revoked and cannot change');
  checkTargets(ctx, input);
  const patch: Partial<IncomingWebhookRecord> = { updated_at: ctx.now() };
  if (input.name !== undefined) patch.name = input.name;
  for (const key of ['wall_id', 'chat_id', 'user_id', 'bot_user_id'] as const) if (input[key] !== undefined) patch[key] = input[key];
  if (input.bot_user_id !== undefined) patch.author_id = input.bot_user_id;
  return ctx.db.update<IncomingWebhookRecord>(MESSAGING_KIND.incomingWebhooks, hook.id, patch) ?? hook;
}

/**
 * spec: Incoming webhooks — management "allows create, read, update and revoke"; paths and bodies
 * not shown (DESIGN.md): `GET|POST /incoming-webhooks`, `GET|PUT /incoming-webhooks/{id}`,
 * `POST /incoming-webhooks/{id}/revoke`, visible only to the token that created them.
 */
export function registerIncomingManagement(router: ApiRouter, ctx: SandboxContext): void {
  const serialize = (w: IncomingWebhookRecord): Record<string, unknown> => serializeIncomingWebhook(ctx, w);
  router.route('GET', '/incoming-webhooks', 'read:incoming_webhooks', (request, auth) => {
    const rows = ctx.db.filter<IncomingWebhookRecord>(MESSAGING_KIND.incomingWebhooks, (w) => w.token_id === auth.token.id);
    return paginate(request, rows, readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone), serialize);
  });
  router.route('GET', '/incoming-webhooks/{id}', 'read:incoming_webhooks', (request, auth) => ({
    data: serialize(ownWebhook(ctx, auth, (request.params as Params).id)),
  }));
  router.route('POST', '/incoming-webhooks', 'write:incoming_webhooks', (request, auth) => ({ data: create(ctx, auth, request) }), { status: 201 });
  router.route('PUT', '/incoming-webhooks/{id}', 'write:incoming_webhooks', (request, auth) => ({
    data: serialize(update(ctx, ownWebhook(ctx, auth, (request.params as Params).id), request.body)),
  }));
  router.route('POST', '/incoming-webhooks/{id}/revoke', 'write:incoming_webhooks', (request, auth) => {
    const hook = ownWebhook(ctx, auth, (request.params as Params).id);
    if (hook.revoked_at !== null) return { data: serialize(hook) };
    const now = ctx.now();
    return { data: serialize(ctx.db.update<IncomingWebhookRecord>(MESSAGING_KIND.incomingWebhooks, hook.id, { revoked_at: now, updated_at: now }) ?? hook) };
  });
}
