import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { findCreatedComment, foundOrAbsent, searchOf } from '../find-created';
import { callOnce } from '../send-client';
import { IdSchema, TenantSchema, TextSchema } from './entry-fields';
import { tokenUserOf, type Created, type SendKind } from './send-kind';

export const CommentEntrySchema = z.strictObject({
  kind: z.literal('comment'),
  tenant: TenantSchema,
  postId: IdSchema,
  /** When known, the comment queues behind the posts of that wall, so a reply never overtakes them. */
  wallId: IdSchema.optional(),
  body: TextSchema,
});
export type CommentEntry = z.infer<typeof CommentEntrySchema>;

/** A comment as `testBot` records it. */
export type SentComment = { kind: 'comment'; postId: number; text: string };

export const commentKind: SendKind<typeof CommentEntrySchema, 'comment', SentComment> = {
  schema: CommentEntrySchema,
  sample: { kind: 'comment', tenant: 'sandbox', postId: 41, wallId: 3, body: 'On it' },
  // a reply with a known wall queues with that wall's posts, so it never overtakes the post it follows
  orderKey: (e) => (e.wallId === undefined ? `${e.tenant}:post:${e.postId}` : `${e.tenant}:wall:${e.wallId}`),
  async send(entry, ctx) {
    // spec: comments cannot carry bot_user_id, so every comment the runtime writes is the token's user's
    const comment = (await callOnce(ctx.client, endpoints['comments.create'], {
      signal: ctx.signal,
      params: { post_id: entry.postId },
      body: { body: entry.body },
    })) as Created;
    return { created: { kind: 'comment', id: comment.id, ...tokenUserOf(comment) } };
  },
  reconcile: async (client, entry, input) =>
    foundOrAbsent('comment', await findCreatedComment(client, { ...searchOf(input), postId: entry.postId, body: entry.body, authorId: input.tokenUserId })),
  createdItem: 'comment',
  summary: (entry) => ({ text: entry.body }),
  destination: (entry) => `post ${entry.postId}`,
  record: (entry): SentComment => ({ kind: 'comment', postId: entry.postId, text: entry.body }),
};
