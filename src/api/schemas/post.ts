import { z } from 'zod';
import { DateTimeSchema, IdInputSchema, IdSchema, requiredText } from './common';
import { EmbeddedUserSchema } from './user';

/** spec: Limits — media per post. */
export const MAX_MEDIA_PER_POST = 10;

/** spec: Post */
export const PostSchema = z.looseObject({
  id: IdSchema,
  body: z.string(),
  wall_id: IdSchema,
  wall_name: z.string(),
  author: EmbeddedUserSchema,
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Post = z.infer<typeof PostSchema>;

/** POST /walls/{wall_id}/posts body (spec: Posts, create body). */
export const PostCreateSchema = z.strictObject({
  body: requiredText('body'),
  media_ids: z
    .array(IdInputSchema, { error: 'media_ids must be an array of integer ids' })
    .max(MAX_MEDIA_PER_POST, { error: `media_ids takes at most ${MAX_MEDIA_PER_POST} items` })
    .optional(),
  bot_user_id: IdInputSchema.optional(),
});
export type PostCreate = z.input<typeof PostCreateSchema>;

/** PUT /walls/{wall_id}/posts/{id} body: `{ body }` (spec: Posts). */
export const PostUpdateSchema = z.strictObject({ body: requiredText('body') });
export type PostUpdate = z.input<typeof PostUpdateSchema>;
