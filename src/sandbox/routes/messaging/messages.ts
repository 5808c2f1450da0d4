import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { findUser, reducedUser } from '../../serialize/user';
import type { UserRecord } from '../../state/records';
import { MESSAGING_KIND, type MessageRecord } from './messaging-records';

export type NewMessage = Omit<MessageRecord, 'id' | 'created_at' | 'is_pinned' | 'title' | 'recipient_ids' | 'chat_id' | 'user_id' | 'incoming_webhook_id'> &
  Partial<Pick<MessageRecord, 'title' | 'recipient_ids' | 'chat_id' | 'user_id' | 'incoming_webhook_id'>>;

export function storeMessage(ctx: SandboxContext, message: NewMessage): MessageRecord {
  return ctx.db.insert(MESSAGING_KIND.messages, {
    title: null,
    recipient_ids: [],
    chat_id: null,
    user_id: null,
    incoming_webhook_id: null,
    ...message,
    is_pinned: false,
    created_at: ctx.now(),
  } satisfies Omit<MessageRecord, 'id'>);
}

/** A message as `GET /_sandbox/messages` shows it: who sent it, to where, what, when. */
export function serializeMessage(ctx: SandboxContext, m: MessageRecord): Record<string, unknown> {
  const sender = m.sender_id === null ? undefined : findUser(ctx, m.sender_id);
  return {
    id: m.id,
    kind: m.kind,
    chat_id: m.chat_id,
    user_id: m.user_id,
    sender: sender ? { ...reducedUser(sender), type: sender.kind } : null,
    title: m.title,
    text: m.text,
    media: m.media,
    recipient_ids: m.kind === 'notification' ? m.recipient_ids : undefined,
    source: m.source,
    incoming_webhook_id: m.incoming_webhook_id,
    is_pinned: m.is_pinned,
    created_at: ctx.iso(m.created_at),
  };
}

/** A bot user may send direct messages (spec: Incoming webhooks — "a bot user is always the sender"). */
export function requireBot(ctx: SandboxContext, id: number, field = 'bot_user_id'): UserRecord & { id: number } {
  const user = findUser(ctx, id) as (UserRecord & { id: number }) | undefined;
  if (!user || user.kind !== 'bot' || user.deleted_at !== null) throw validationError(field, `user ${id} is not a bot user`);
  return user;
}

/** A registered employee who can receive a direct message or a notification. */
export function isReachableEmployee(user: UserRecord | undefined): boolean {
  return user !== undefined && user.kind === 'default' && user.status === 'registered' && user.deleted_at === null;
}
