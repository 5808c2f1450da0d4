import { DirectMessageCreateSchema } from '../../../api/schemas/direct-message';
import { FeedbackCreateSchema } from '../../../api/schemas/feedback';
import { NotificationCreateSchema } from '../../../api/schemas/notification';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { findUser } from '../../serialize/user';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';
import { downloadMedia, storedMedia } from './media-download';
import { isReachableEmployee, requireBot, storeMessage } from './messages';
import { MESSAGING_KIND, type MessageRecord } from './messaging-records';

type Params = { id?: string };

/** POST /users/{id}/messages — a bot's direct message. spec: not shown (DESIGN.md): `{ bot_user_id, text, media? }`. */
async function sendDirectMessage(ctx: SandboxContext, rawId: unknown, body: unknown): Promise<Record<string, unknown>> {
  const recipient = findUser(ctx, idParam(rawId));
  if (!recipient || recipient.deleted_at !== null) throw notFound();
  const input = validate(DirectMessageCreateSchema, body);
  if (!isReachableEmployee(recipient)) throw validationError('user_id', `user ${recipient.id} is not a registered employee`);
  const bot = requireBot(ctx, input.bot_user_id);
  const media = storedMedia(await downloadMedia(input.media ?? []));
  const message = storeMessage(ctx, { kind: 'direct', user_id: recipient.id, sender_id: bot.id, text: input.text, media, source: 'api' });
  return {
    id: message.id,
    user_id: recipient.id,
    bot_user_id: bot.id,
    text: message.text,
    media: message.media.map(({ url, type }) => ({ url, type })),
    created_at: ctx.iso(message.created_at),
  };
}

/**
 * POST /notifications — the distinct registered employees in the named groups or among the named
 * users (spec: Other endpoints that exist — "returns the number of employees matched").
 */
function sendNotification(ctx: SandboxContext, actorId: number, body: unknown): { matched: number } {
  const input = validate(NotificationCreateSchema, body);
  const groups = input.groups ?? [];
  groups.forEach((id, i) => {
    const group = ctx.db.get<GroupRecord>(KIND.groups, id);
    if (!group || group.type === 'system') throw validationError(`groups.${i}`, `group ${id} does not exist`);
  });
  const users = new Set(input.users ?? []);
  const matched = ctx.db.filter<UserRecord & { id: number }>(
    KIND.users,
    (u) => isReachableEmployee(u) && (users.has(u.id) || u.memberships.some((m) => groups.includes(m.group_id))),
  );
  storeMessage(ctx, {
    kind: 'notification',
    sender_id: actorId,
    title: input.title,
    text: input.body,
    media: [],
    recipient_ids: matched.map((u) => u.id),
    source: 'api',
  });
  return { matched: matched.length };
}

function setPinned(ctx: SandboxContext, rawId: unknown, pinned: boolean): MessageRecord {
  const message = ctx.db.get<MessageRecord>(MESSAGING_KIND.messages, idParam(rawId));
  if (!message || message.kind !== 'chat') throw notFound();
  return ctx.db.update<MessageRecord>(MESSAGING_KIND.messages, message.id, { is_pinned: pinned }) ?? message;
}

/** spec: Other endpoints that exist — direct messages, notifications, pins and feedback. */
export function registerMessageApi(router: ApiRouter, ctx: SandboxContext): void {
  router.route(
    'POST',
    '/users/{id}/messages',
    'write:chat_messages',
    async (request) => ({ data: await sendDirectMessage(ctx, (request.params as Params).id, request.body) }),
    { status: 201 },
  );
  router.route('POST', '/notifications', 'write:notifications', (request, auth) => ({ data: sendNotification(ctx, auth.actor.id, request.body) }), {
    status: 201,
  });
  router.route('POST', '/chat-messages/{id}/pin', 'write:chat_messages', (request) => {
    const message = setPinned(ctx, (request.params as Params).id, true);
    return { data: { id: message.id, is_pinned: message.is_pinned } };
  });
  router.route(
    'DELETE',
    '/chat-messages/{id}/pin',
    'write:chat_messages',
    (request) => {
      setPinned(ctx, (request.params as Params).id, false);
      return undefined;
    },
    { status: 204 },
  );
  // spec: Other endpoints that exist — POST /feedback takes any valid token
  router.route(
    'POST',
    '/feedback',
    null,
    (request, auth) => {
      const input = validate(FeedbackCreateSchema, request.body);
      const row = ctx.db.insert(MESSAGING_KIND.feedback, {
        message: input.message,
        category: input.category ?? null,
        token_id: auth.token.id,
        created_at: ctx.now(),
      });
      return { data: { id: row.id, message: row.message, category: row.category, created_at: ctx.iso(row.created_at) } };
    },
    { status: 201 },
  );
}
