import type { SandboxContext } from '../../context';
import { postCreatedPayload, serializeComment } from '../../serialize/post';
import { POSTS_KIND, type CommentRecord, type PostRecord } from './records';

/** spec: Events — POST /walls/{wall_id}/posts (and an employee's post going live) fires post.created. */
export function announcePost(ctx: SandboxContext, post: PostRecord): void {
  ctx.events.emit({ event: 'post.created', payload: postCreatedPayload(ctx, post), entityIds: { wall: post.wall_id } });
}

/**
 * spec: Events — the comment endpoints (and employees' comments) fire comment.created, .updated and
 * .deleted. The payload is the Comment (with `post_id` and `wall_id`); a wall filter matches its wall.
 */
export function announceComment(ctx: SandboxContext, event: 'comment.created' | 'comment.updated' | 'comment.deleted', comment: CommentRecord): void {
  ctx.events.emit({ event, payload: serializeComment(ctx, comment), entityIds: { wall: comment.wall_id } });
}

/**
 * spec: Wall post visibility — an employee's scheduled post goes live when the clock reaches its
 * `scheduled_at`: published, dated then (so `since` syncs pick it up), and announced. Runs on every
 * tick and before every read, so visibility never lags the clock.
 */
export function publishDuePosts(ctx: SandboxContext, now = ctx.now()): void {
  const due = ctx.db
    .filter<PostRecord>(POSTS_KIND.posts, (p) => p.status === 'scheduled' && p.scheduled_at !== null && p.scheduled_at <= now)
    .sort((a, b) => (a.scheduled_at as number) - (b.scheduled_at as number) || a.id - b.id);
  for (const post of due) {
    const at = post.scheduled_at as number;
    const live = ctx.db.update<PostRecord>(POSTS_KIND.posts, post.id, { status: 'published', created_at: at, updated_at: at });
    if (live) announcePost(ctx, live);
  }
}

/** What the API may show: anything but an employee's post still waiting for its time (404 then). */
export function isApiVisible(post: PostRecord | undefined): post is PostRecord {
  return post !== undefined && post.status !== 'scheduled';
}
