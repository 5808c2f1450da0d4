import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { requestOrigin } from '../../serialize/media';
import { serializeComment, serializePost } from '../../serialize/post';
import { findUser, isListedUser } from '../../serialize/user';
import { KIND, type UserRecord, type WallRecord } from '../../state/records';
import { parseIso } from '../../time';
import { createComment, createPost } from './create';
import { isApiVisible, publishDuePosts } from './publish';
import { POSTS_KIND, type CommentRecord, type PostRecord } from './records';
import { newestFirst } from './wall-posts';

const EmployeePostSchema = z.object({
  wall_id: z.number().int().positive(),
  body: z.string().trim().min(1, { error: 'must not be empty' }),
  scheduled_at: z.string().nullable().optional(),
  /** Store the post without firing post.created (`intrabot trigger` signs and sends that event itself). */
  silent: z.boolean().optional(),
});

const EmployeeCommentSchema = z.object({
  post_id: z.number().int().positive(),
  body: z.string().trim().min(1, { error: 'must not be empty' }),
});

/** The employee acting through the control API: a registered, undeleted user. */
function employeeOf(ctx: SandboxContext, request: FastifyRequest): UserRecord {
  const user = findUser(ctx, idParam((request.params as { id?: string }).id));
  if (!user || !isListedUser(user)) throw notFound();
  return user;
}

/** A post as tests see it: the Post plus its state (`status`, `scheduled_at`, `origin`). */
function controlPost(ctx: SandboxContext, post: PostRecord, origin: string): Record<string, unknown> {
  return { ...serializePost(ctx, post, origin), status: post.status, scheduled_at: ctx.isoOrNull(post.scheduled_at), origin: post.origin };
}

/** Employee actions on walls (DESIGN.md control API) and the read-back of every post of a wall. */
export function registerPostsControl(app: FastifyInstance, ctx: SandboxContext): void {
  // an employee posts; with a future `scheduled_at` the post waits, invisible, until then (spec: Wall post visibility)
  app.post('/_sandbox/users/:id/posts', async (request, reply) => {
    const user = employeeOf(ctx, request);
    const input = validate(EmployeePostSchema, request.body);
    if (!ctx.db.get<WallRecord & { id: number }>(KIND.walls, input.wall_id)) throw validationError('wall_id', `wall ${input.wall_id} does not exist`);
    let scheduledAt: number | null = null;
    if (input.scheduled_at) {
      scheduledAt = parseIso(input.scheduled_at, ctx.settings.timezone);
      if (Number.isNaN(scheduledAt)) throw validationError('scheduled_at', 'must be an ISO 8601 datetime');
    }
    const post = createPost(ctx, {
      wallId: input.wall_id,
      body: input.body,
      authorId: user.id,
      scheduledAt,
      origin: 'employee',
      announce: input.silent !== true,
    });
    return reply.code(201).send({ data: controlPost(ctx, post, requestOrigin(request)) });
  });

  app.post('/_sandbox/users/:id/comments', async (request, reply) => {
    const user = employeeOf(ctx, request);
    const input = validate(EmployeeCommentSchema, request.body);
    publishDuePosts(ctx);
    const post = ctx.db.get<PostRecord>(POSTS_KIND.posts, input.post_id);
    if (!isApiVisible(post)) throw validationError('post_id', `post ${input.post_id} does not exist or is not live`);
    return reply.code(201).send({ data: serializeComment(ctx, createComment(ctx, post, input.body, user.id, 'employee')) });
  });

  // what a test reads back of a bot's answers: outside the API, so polling never spends a token's rate budget
  app.get('/_sandbox/posts/:id/comments', async (request) => {
    const postId = idParam((request.params as { id?: string }).id);
    if (!ctx.db.get(POSTS_KIND.posts, postId)) throw notFound();
    return { data: ctx.db.filter<CommentRecord>(POSTS_KIND.comments, (c) => c.post_id === postId).map((c) => serializeComment(ctx, c)) };
  });

  app.get('/_sandbox/walls/:id/posts', async (request) => {
    const wallId = idParam((request.params as { id?: string }).id);
    if (!ctx.db.get(KIND.walls, wallId)) throw notFound();
    publishDuePosts(ctx);
    const posts = newestFirst(ctx.db.filter<PostRecord>(POSTS_KIND.posts, (p) => p.wall_id === wallId));
    return { data: posts.map((p) => controlPost(ctx, p, requestOrigin(request))) };
  });
}
