import { z } from 'zod';
import { DateTimeSchema, IdSchema, requiredText } from './common';
import { EmbeddedUserSchema } from './user';

/** spec: Comment edit window — only the author, within 30 minutes of creation (enforced by the platform). */
export const COMMENT_EDIT_WINDOW_MS = 30 * 60_000;

/** spec: Comment */
export const CommentSchema = z.looseObject({
  id: IdSchema,
  body: z.string(),
  post_id: IdSchema,
  wall_id: IdSchema,
  author: EmbeddedUserSchema,
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Comment = z.infer<typeof CommentSchema>;

/** POST /posts/{post_id}/comments body: `{ body }` (spec: Comments). */
export const CommentCreateSchema = z.strictObject({ body: requiredText('body') });
export type CommentCreate = z.input<typeof CommentCreateSchema>;

/** PUT /posts/{post_id}/comments/{id} body: `{ body }` (spec: Comments). */
export const CommentUpdateSchema = z.strictObject({ body: requiredText('body') });
export type CommentUpdate = z.input<typeof CommentUpdateSchema>;
