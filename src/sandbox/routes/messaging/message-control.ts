import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { validate } from '../../http/validate';
import { serializeMessage } from './messages';
import { MESSAGING_KIND, type ChatRecord, type MessageRecord } from './messaging-records';

const MessagesQuerySchema = z.object({
  kind: z.enum(['chat', 'direct', 'notification']).optional(),
  chat_id: z.coerce.number().int().positive().optional(),
  user_id: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

function matches(m: MessageRecord, q: z.infer<typeof MessagesQuerySchema>): boolean {
  if (q.kind !== undefined && m.kind !== q.kind) return false;
  if (q.chat_id !== undefined && m.chat_id !== q.chat_id) return false;
  // a user's messages: direct messages to them and notifications that reached them
  if (q.user_id !== undefined && m.user_id !== q.user_id && !m.recipient_ids.includes(q.user_id)) return false;
  return true;
}

/**
 * What the API cannot read back (DESIGN.md): `GET /_sandbox/messages?kind=&chat_id=&user_id=`, newest
 * first, from incoming webhooks and the API; `GET /_sandbox/chats`, the chat rooms.
 */
export function registerMessageControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/messages', async (request) => {
    const query = validate(MessagesQuerySchema, request.query);
    const rows = ctx.db
      .filter<MessageRecord>(MESSAGING_KIND.messages, (m) => matches(m, query))
      .reverse()
      .slice(0, query.limit);
    return { data: rows.map((m) => serializeMessage(ctx, m)) };
  });
  app.get('/_sandbox/chats', async () => ({ data: ctx.db.all<ChatRecord>(MESSAGING_KIND.chats).map((c) => ({ id: c.id, name: c.name })) }));
}
