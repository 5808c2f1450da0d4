import { z } from 'zod';
import { DateTimeSchema, IdInputSchema, IdSchema, MediaTypeSchema, requiredText } from './common';
import { IncomingMediaItemSchema, MAX_MEDIA_PER_INCOMING } from './incoming-webhook';

/** POST /users/{id}/messages body. spec: not shown (DESIGN.md): `{ bot_user_id, text, media? }`. */
export const DirectMessageCreateSchema = z.strictObject({
  bot_user_id: IdInputSchema,
  text: requiredText('text'),
  media: z
    .array(IncomingMediaItemSchema, { error: 'media must be an array of { url, type }' })
    .max(MAX_MEDIA_PER_INCOMING, { error: `media takes at most ${MAX_MEDIA_PER_INCOMING} items` })
    .optional(),
});
export type DirectMessageCreate = z.input<typeof DirectMessageCreateSchema>;

/** The sent message. spec: not shown. */
export const DirectMessageSchema = z.looseObject({
  id: IdSchema,
  user_id: IdSchema,
  bot_user_id: IdSchema,
  text: z.string(),
  media: z.array(z.looseObject({ url: z.string(), type: MediaTypeSchema })).optional(),
  created_at: DateTimeSchema,
});
export type DirectMessage = z.infer<typeof DirectMessageSchema>;
