import type { FastifyRequest } from 'fastify';
import { PostCreateSchema, PostUpdateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { requireScope, type AuthInfo } from '../../http/auth';
import { paginate, readPageQuery, readStatus } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { requestOrigin } from '../../serialize/media';
import { serializePost } from '../../serialize/post';
import { KIND, type WallRecord } from '../../state/records';
import { botAuthor, createPost } from './create';
import { isApiVisible, publishDuePosts } from './publish';
import { POSTS_KIND, type CommentRecord, type PostRecord } from './records';

type Params = { wall_id?: string; id?: string };

export function wallOf(ctx: SandboxContext, id: unknown): WallRecord & { id: number } {
  const wall = ctx.db.get<WallRecord & { id: number }>(KIND.walls, idParam(id));
  if (!wall) throw notFound();
  return wall;
}

/** A post of the wall that the API may show (spec: Posts — 404 for an employee-scheduled post). */
function visiblePost(ctx: SandboxContext, request: FastifyRequest): PostRecord {
  const params = request.params as Params;
  const wall = wallOf(ctx, params.wall_id);
  publishDuePosts(ctx);
  const post = ctx.db.get<PostRecord>(POSTS_KIND.posts, idParam(params.id));
  if (!isApiVisible(post) || post.wall_id !== wall.id) throw notFound();
  return post;
}

/** Newest first (spec: Wall post visibility lists; newest-first where the spec says). */
export function newestFirst(posts: PostRecord[]): PostRecord[] {
  return posts.sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

/** spec: Posts (read:posts, write:posts; plus write:media when attaching media). */
export function registerWallPostRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/walls/{wall_id}/posts', 'read:posts', (request) => {
    const wall = wallOf(ctx, (request.params as Params).wall_id);
    const query = request.query as Record<string, unknown>;
    const status = readStatus(query);
    const page = readPageQuery(query, ctx.settings.timezone);
    publishDuePosts(ctx);
    // spec: Wall post visibility — a post an employee scheduled is absent from every list status
    const rows = ctx.db.filter<PostRecord>(
      POSTS_KIND.posts,
      (p) => p.wall_id === wall.id && p.status !== 'scheduled' && (status === 'all' || p.status === status),
    );
    return paginate(request, newestFirst(rows), page, (p) => serializePost(ctx, p, requestOrigin(request)));
  });
  router.route('GET', '/walls/{wall_id}/posts/{id}', 'read:posts', (request) => ({
    data: serializePost(ctx, visiblePost(ctx, request), requestOrigin(request)),
  }));
  router.route(
    'POST',
    '/walls/{wall_id}/posts',
    'write:posts',
    (request, auth) => ({ data: serializePost(ctx, createApiPost(ctx, request, auth), requestOrigin(request)) }),
    { status: 201 },
  );
  router.route('PUT', '/walls/{wall_id}/posts/{id}', 'write:posts', (request) => {
    const post = visiblePost(ctx, request);
    const input = validate(PostUpdateSchema, request.body);
    const updated = ctx.db.update<PostRecord>(POSTS_KIND.posts, post.id, { body: input.body, updated_at: ctx.now() }) as PostRecord;
    return { data: serializePost(ctx, updated, requestOrigin(request)) };
  });
  router.route(
    'DELETE',
    '/walls/{wall_id}/posts/{id}',
    'write:posts',
    (request) => {
      const post = visiblePost(ctx, request);
      for (const comment of ctx.db.filter<CommentRecord>(POSTS_KIND.comments, (c) => c.post_id === post.id)) ctx.db.remove(POSTS_KIND.comments, comment.id);
      ctx.db.remove(POSTS_KIND.posts, post.id);
      return undefined;
    },
    { status: 204 },
  );
}

/**
 * spec: Posts, create body. The scope for media is checked before the body's rules (403 comes
 * before 422, as for every scope); the author is the bot when `bot_user_id` is given, else the
 * token's attributed user (spec: Post.author; Authentication 4). Published at once.
 */
function createApiPost(ctx: SandboxContext, request: FastifyRequest, auth: AuthInfo): PostRecord {
  const wall = wallOf(ctx, (request.params as Params).wall_id);
  const raw = request.body as { media_ids?: unknown } | undefined;
  if (Array.isArray(raw?.media_ids) && raw.media_ids.length > 0) requireScope(auth, 'write:media');
  const input = validate(PostCreateSchema, request.body);
  const author = input.bot_user_id !== undefined ? botAuthor(ctx, input.bot_user_id) : auth.actor;
  return createPost(ctx, { wallId: wall.id, body: input.body, authorId: author.id, mediaIds: input.media_ids ?? [], origin: 'api' });
}
