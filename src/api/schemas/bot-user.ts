import { z } from 'zod';
import { DateTimeSchema, IdSchema, requiredText } from './common';

/** spec: Bot user */
export const BotUserSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  avatar_url: z.string().nullable(),
  created_at: DateTimeSchema,
});
export type BotUser = z.infer<typeof BotUserSchema>;

const AvatarUrlSchema = z.url({ protocol: /^https?$/, error: 'avatar_url must be a public http(s) image URL' });

/** POST /bots body: `{ name, avatar_url? }` (spec: Bots). */
export const BotUserCreateSchema = z.strictObject({
  name: requiredText('name'),
  avatar_url: AvatarUrlSchema.optional(),
});
export type BotUserCreate = z.input<typeof BotUserCreateSchema>;

/** PUT /bots/{id} body: `name`, `avatar_url` (spec: Bots). */
export const BotUserUpdateSchema = z.strictObject({
  name: requiredText('name').optional(),
  avatar_url: AvatarUrlSchema.optional(),
});
export type BotUserUpdate = z.input<typeof BotUserUpdateSchema>;
