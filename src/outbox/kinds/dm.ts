import { z } from 'zod';
import { IncomingMediaItemSchema } from '../../api/schemas/incoming-webhook';
import { endpoints } from '../../api/schemas/endpoints';
import { callOnce } from '../send-client';
import { BotNameSchema, IdSchema, sendingBotUser, TenantSchema, TextSchema } from './entry-fields';
import type { SendKind } from './send-kind';
import { withMedia, type SentMedia } from './sent-media';

/** A direct message, always sent by a bot user: `botUserId`, or the `bot` whose user the sender fills in. */
export const DmEntrySchema = z
  .strictObject({
    kind: z.literal('dm'),
    tenant: TenantSchema,
    userId: IdSchema,
    bot: BotNameSchema.optional(),
    botUserId: IdSchema.optional(),
    text: TextSchema,
    media: z.array(IncomingMediaItemSchema).max(10).optional(),
  })
  .refine((e) => e.botUserId !== undefined || e.bot !== undefined, { error: 'a direct message needs botUserId or bot', path: ['botUserId'] });
export type DmEntry = z.infer<typeof DmEntrySchema>;

/** A direct message as `testBot` records it: to the employee written to. */
export type SentDm = { kind: 'dm'; userId: number; text: string; media?: SentMedia[] };

export const dmKind: SendKind<typeof DmEntrySchema, never, SentDm> = {
  schema: DmEntrySchema,
  sample: { kind: 'dm', tenant: 'sandbox', userId: 12, botUserId: 900, text: 'Your build is green' },
  orderKey: (entry) => `${entry.tenant}:user:${entry.userId}`,
  async send(entry, ctx) {
    await callOnce(ctx.client, endpoints['directMessages.send'], {
      signal: ctx.signal,
      params: { id: entry.userId },
      body: { bot_user_id: sendingBotUser(entry), text: entry.text, ...(entry.media ? { media: entry.media } : {}) },
    });
    return {};
  },
  mergeable: {
    text: (entry) => (entry.media?.length ? undefined : entry.text),
    withText: (entry, text) => ({ ...entry, text }),
    sameChannel: (a, b) => a.userId === b.userId && a.botUserId === b.botUserId && a.bot === b.bot,
  },
  summary: (entry) => ({ text: entry.text }),
  destination: (entry) => `user ${entry.userId}`,
  record: (entry): SentDm => withMedia({ kind: 'dm', userId: entry.userId, text: entry.text }, entry.media),
};
