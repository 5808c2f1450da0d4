import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { InvalidInputError } from '../../errors';
import { findCreatedPost, foundOrAbsent, searchOf } from '../find-created';
import { callOnce } from '../send-client';
import { uploadOnce } from '../upload-once';
import { BotNameSchema, IdSchema, PostMediaSchema, sendingBotUser, TenantSchema, TextSchema } from './entry-fields';
import { tokenUserOf, type Created, type SendKind } from './send-kind';
import { withMedia, type SentMedia } from './sent-media';

/**
 * A wall post. A bot's post names the bot: when its user was not known yet (queued before provisioning
 * finished) the sender fills in `botUserId` before sending, and a wall known only by name (the walls
 * were never listed) is resolved by the sender too.
 */
export const PostEntrySchema = z
  .strictObject({
    kind: z.literal('post'),
    tenant: TenantSchema,
    wallId: IdSchema.optional(),
    wallName: z.string().min(1).optional(),
    body: TextSchema,
    bot: BotNameSchema.optional(),
    botUserId: IdSchema.optional(),
    // spec: Limits — media per post: 10
    media: z.array(PostMediaSchema).max(10).optional(),
    /** An alert input's firing message: the refs of its alerts, recorded with the post's id once created (their resolutions answer it). */
    alert: z.strictObject({ refs: z.array(z.string().min(1)).min(1), group: z.string().min(1).optional() }).optional(),
  })
  .refine((e) => (e.wallId === undefined) !== (e.wallName === undefined), { error: 'a post needs exactly one of wallId or wallName', path: ['wallId'] });
export type PostEntry = z.infer<typeof PostEntrySchema>;

/** A post as `testBot` records it: on a wall (its id, or its name when the test gave no id for it). */
export type SentPost = { kind: 'post'; wall: number | string; text: string; media?: SentMedia[] };

/** The wall a post goes to; a post whose wall is known by name only must have it resolved first (the runtime's sender does). */
export function sendableWallId(entry: PostEntry): number {
  if (entry.wallId !== undefined) return entry.wallId;
  throw new InvalidInputError('entry.wallName', `entry.wallName: the wall "${entry.wallName}" was never resolved to an id`);
}

export const postKind: SendKind<typeof PostEntrySchema, 'post', SentPost> = {
  schema: PostEntrySchema,
  sample: { kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Release 4.2 is out' },
  // a wall known by name only keeps its own order until it is resolved
  orderKey: (e) => (e.wallId === undefined ? `${e.tenant}:wall-named:${e.wallName?.toLowerCase()}` : `${e.tenant}:wall:${e.wallId}`),
  async send(entry, ctx) {
    const mediaIds = entry.media?.length
      ? await uploadOnce({ client: ctx.client, kv: ctx.kv, entryId: ctx.entryId, media: entry.media, ttlMs: ctx.ttlMs, signal: ctx.signal })
      : undefined;
    const wallId = sendableWallId(entry);
    const botUserId = sendingBotUser(entry);
    const body = { body: entry.body, ...(botUserId ? { bot_user_id: botUserId } : {}), ...(mediaIds ? { media_ids: mediaIds } : {}) };
    const post = (await callOnce(ctx.client, endpoints['posts.create'], { signal: ctx.signal, params: { wall_id: wallId }, body })) as Created;
    return { created: { kind: 'post', id: post.id, ...(botUserId ? {} : tokenUserOf(post)) } };
  },
  async reconcile(client, entry, input) {
    // spec: Post — the author is the bot when `bot_user_id` was given, else the token's user
    const authorId = sendingBotUser(entry) ?? input.tokenUserId;
    return foundOrAbsent('post', await findCreatedPost(client, { ...searchOf(input), wallId: sendableWallId(entry), body: entry.body, authorId }));
  },
  createdItem: 'post',
  mergeable: {
    text: (entry) => (entry.media?.length ? undefined : entry.body),
    withText: (entry, text) => ({ ...entry, body: text }),
    sameChannel: (a, b) => a.wallId === b.wallId && a.wallName === b.wallName && a.botUserId === b.botUserId && a.bot === b.bot,
  },
  summary: (entry) => ({ text: entry.body }),
  destination: (entry) => (entry.wallId !== undefined ? `wall ${entry.wallId}` : `wall ${entry.wallName ?? '?'}`),
  record: (entry): SentPost => withMedia({ kind: 'post', wall: entry.wallId ?? entry.wallName ?? '', text: entry.body }, entry.media),
};
