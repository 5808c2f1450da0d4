import type { SandboxContext } from '../context';
import { POSTS_KIND, type CommentRecord, type MediaRecord, type PostRecord } from '../routes/posts/records';
import { KIND, type UserRecord, type WallRecord } from '../state/records';
import { serializeMedia } from './media';
import { serializeUser } from './user';

function authorOf(ctx: SandboxContext, id: number): UserRecord {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, id);
  if (!user) throw new Error(`sandbox state: author ${id} is missing`);
  return user;
}

function wallName(ctx: SandboxContext, wallId: number): string {
  return ctx.db.get<WallRecord & { id: number }>(KIND.walls, wallId)?.name ?? '';
}

/**
 * spec: Post — `{ id, body, wall_id, wall_name, author (User), created_at, updated_at }`, plus the
 * attached `media` and the `gallery` they form (additive fields; spec: Posts, create body).
 */
export function serializePost(ctx: SandboxContext, post: PostRecord, origin: string): Record<string, unknown> {
  const media = post.media_ids
    .map((id) => ctx.db.get<MediaRecord>(POSTS_KIND.media, id))
    .filter((m): m is MediaRecord => m !== undefined)
    .map((m) => serializeMedia(ctx, m, origin));
  return {
    id: post.id,
    body: post.body,
    wall_id: post.wall_id,
    wall_name: wallName(ctx, post.wall_id),
    author: serializeUser(ctx, authorOf(ctx, post.author_id)),
    media,
    gallery: post.gallery ? { type: post.gallery.kind, media_ids: post.gallery.media_ids } : null,
    created_at: ctx.iso(post.created_at),
    updated_at: ctx.iso(post.updated_at),
  };
}

/** spec: Events, service.post.created — exactly `{ id, body, wall_id, wall_name, author { id, name, email }, created_at, updated_at }`. */
export function postCreatedPayload(ctx: SandboxContext, post: PostRecord): Record<string, unknown> {
  const author = authorOf(ctx, post.author_id);
  return {
    id: post.id,
    body: post.body,
    wall_id: post.wall_id,
    wall_name: wallName(ctx, post.wall_id),
    author: { id: author.id, name: author.name, email: author.email },
    created_at: ctx.iso(post.created_at),
    updated_at: ctx.iso(post.updated_at),
  };
}

/** spec: Comment — `{ id, body, post_id, wall_id, author (User), created_at, updated_at }`; also the comment events' payload. */
export function serializeComment(ctx: SandboxContext, comment: CommentRecord): Record<string, unknown> {
  return {
    id: comment.id,
    body: comment.body,
    post_id: comment.post_id,
    wall_id: comment.wall_id,
    author: serializeUser(ctx, authorOf(ctx, comment.author_id)),
    created_at: ctx.iso(comment.created_at),
    updated_at: ctx.iso(comment.updated_at),
  };
}
