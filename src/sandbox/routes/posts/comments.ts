import type { FastifyRequest } from 'fastify';
import { COMMENT_EDIT_WINDOW_MS, CommentCreateSchema, CommentUpdateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { forbidden, notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { serializeComment } from '../../serialize/post';
import { createComment } from './create';
import { announceComment, isApiVisible, publishDuePosts } from './publish';
import { POSTS_KIND, type CommentRecord, type PostRecord } from './records';

type Params = { post_id?: string; id?: string };

/** The post of a comments route: must exist and be visible (an employee's scheduled post is a 404). */
export function commentablePost(ctx: SandboxContext, id: unknown): PostRecord {
  publishDuePosts(ctx);
  const post = ctx.db.get<PostRecord>(POSTS_KIND.posts, idParam(id));
  if (!isApiVisible(post)) throw notFound();
  return post;
}

function commentOf(ctx: SandboxContext, request: FastifyRequest): CommentRecord {
  const params = request.params as Params;
  const post = commentablePost(ctx, params.post_id);
  const comment = ctx.db.get<CommentRecord>(POSTS_KIND.comments, idParam(params.id));
  if (!comment || comment.post_id !== post.id) throw notFound();
  return comment;
}

/** spec: Comments (read:comments, write:comments). Comments list oldest first, as a thread reads. */
export function registerCommentRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/posts/{post_id}/comments', 'read:comments', (request) => {
    const post = commentablePost(ctx, (request.params as Params).post_id);
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const rows = ctx.db.filter<CommentRecord>(POSTS_KIND.comments, (c) => c.post_id === post.id);
    return paginate(request, rows, page, (c) => serializeComment(ctx, c));
  });
  router.route('GET', '/posts/{post_id}/comments/{id}', 'read:comments', (request) => ({ data: serializeComment(ctx, commentOf(ctx, request)) }));
  router.route(
    'POST',
    '/posts/{post_id}/comments',
    'write:comments',
    (request, auth) => {
      const post = commentablePost(ctx, (request.params as Params).post_id);
      const input = validate(CommentCreateSchema, request.body);
      return { data: serializeComment(ctx, createComment(ctx, post, input.body, auth.actor.id, 'api')) };
    },
    { status: 201 },
  );
  router.route('PUT', '/posts/{post_id}/comments/{id}', 'write:comments', (request, auth) => {
    const comment = commentOf(ctx, request);
    const input = validate(CommentUpdateSchema, request.body);
    // spec: Comment edit window — only the author may edit. The spec's 422 list does not name this
    // case and it is a permission, not a fault of the body, so it answers 403 forbidden.
    if (comment.author_id !== auth.actor.id) throw forbidden('Only the author of a comment can edit it.');
    // spec: Comment edit window; Limits — 30 minutes from creation, on the platform's clock
    if (ctx.now() - comment.created_at > COMMENT_EDIT_WINDOW_MS)
      throw validationError('body', 'a comment can be edited only within 30 minutes of its creation');
    const updated = ctx.db.update<CommentRecord>(POSTS_KIND.comments, comment.id, { body: input.body, updated_at: ctx.now() }) as CommentRecord;
    announceComment(ctx, 'comment.updated', updated);
    return { data: serializeComment(ctx, updated) };
  });
  router.route(
    'DELETE',
    '/posts/{post_id}/comments/{id}',
    'write:comments',
    (request) => {
      const comment = commentOf(ctx, request);
      ctx.db.remove(POSTS_KIND.comments, comment.id);
      announceComment(ctx, 'comment.deleted', comment);
      return undefined;
    },
    { status: 204 },
  );
}
