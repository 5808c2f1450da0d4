import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { callOnce } from '../send-client';
import { BotNameSchema, IdSchema, TenantSchema, TextSchema } from './entry-fields';
import type { SendKind } from './send-kind';

/**
 * A wall post's body replaced (spec: Posts, PUT /walls/{wall_id}/posts/{id}): an alert's post kept
 * current, or any post a bot wants to correct. It queues with the wall's posts and comments, so an edit
 * never overtakes the post it edits, and two edits of one post go out in the order they were queued.
 */
export const PostEditEntrySchema = z.strictObject({
  kind: z.literal('post-edit'),
  tenant: TenantSchema,
  /** The post, and its new body. */
  edit: z.strictObject({ wallId: IdSchema, postId: IdSchema, body: TextSchema }),
  bot: BotNameSchema.optional(),
});
export type PostEditEntry = z.infer<typeof PostEditEntrySchema>;

/** An edit as `testBot` records it. */
export type SentPostEdit = { kind: 'post-edit'; wall: number; postId: number; text: string };

/** What `ctx.editPost` takes: the post (its wall and id) and its new body. */
export type PostEditInput = z.input<typeof PostEditEntrySchema>['edit'];

export const postEditKind: SendKind<typeof PostEditEntrySchema, never, SentPostEdit> = {
  schema: PostEditEntrySchema,
  sample: { kind: 'post-edit', tenant: 'sandbox', edit: { wallId: 3, postId: 41, body: 'Release 4.2 is out (and 4.2.1 fixes the installer)' } },
  orderKey: (entry) => `${entry.tenant}:wall:${entry.edit.wallId}`,
  async send(entry, ctx) {
    await callOnce(ctx.client, endpoints['posts.update'], {
      signal: ctx.signal,
      params: { wall_id: entry.edit.wallId, id: entry.edit.postId },
      body: { body: entry.edit.body },
    });
    return {};
  },
  // a PUT of the same body leaves the post as one send would: sending it again after an uncertain attempt is harmless
  repeatable: true,
  summary: (entry) => ({ text: entry.edit.body }),
  destination: (entry) => `post ${entry.edit.postId}`,
  record: (entry): SentPostEdit => ({ kind: 'post-edit', wall: entry.edit.wallId, postId: entry.edit.postId, text: entry.edit.body }),
  contextMethod: { name: 'editPost', entry: (tenant, edit: PostEditInput) => ({ kind: 'post-edit', tenant, edit }) },
};
