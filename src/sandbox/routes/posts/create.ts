import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { isBot } from '../../serialize/bot';
import { KIND, type UserRecord } from '../../state/records';
import { galleryKind } from './gallery';
import { isAudio } from './media-store';
import { announceComment, announcePost } from './publish';
import { POSTS_KIND, type CommentRecord, type MediaRecord, type PostRecord } from './records';

export interface NewPost {
  wallId: number;
  body: string;
  authorId: number;
  mediaIds?: number[];
  /** An employee's post for later (spec: Wall post visibility); API posts never have one. */
  scheduledAt?: number | null;
  origin: PostRecord['origin'];
  /** False: stored without firing post.created (a post `intrabot trigger` signs and sends the event of itself). */
  announce?: boolean;
}

/** spec: Posts, create body — `bot_user_id` must be a bot user (422 otherwise); when given, the bot is the author. */
export function botAuthor(ctx: SandboxContext, botUserId: number): UserRecord & { id: number } {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, botUserId);
  if (!isBot(user)) throw validationError('bot_user_id', `user ${botUserId} is not a bot user`);
  return user as UserRecord & { id: number };
}

/** Attached media must exist and be image, video or document; audio and other types give 422 (spec: Posts). */
export function attachableMedia(ctx: SandboxContext, ids: number[]): MediaRecord[] {
  return ids.map((id, index) => {
    const media = ctx.db.get<MediaRecord>(POSTS_KIND.media, id);
    if (!media) throw validationError(`media_ids.${index}`, `media ${id} does not exist`);
    if (isAudio(media.mime_type) || !['image', 'video', 'document'].includes(media.type)) {
      throw validationError(`media_ids.${index}`, `media ${id} is ${media.mime_type}; only images, videos and documents can be attached`);
    }
    return media;
  });
}

/** Stores a post: published at once (and announced), or scheduled for an employee's later time. */
export function createPost(ctx: SandboxContext, input: NewPost): PostRecord {
  const media = attachableMedia(ctx, input.mediaIds ?? []);
  const kind = galleryKind(media);
  const now = ctx.now();
  const scheduled = input.scheduledAt !== undefined && input.scheduledAt !== null && input.scheduledAt > now;
  const post = ctx.db.insert(POSTS_KIND.posts, {
    wall_id: input.wallId,
    body: input.body,
    author_id: input.authorId,
    media_ids: media.map((m) => m.id),
    gallery: kind ? { kind, media_ids: media.map((m) => m.id) } : null,
    status: scheduled ? 'scheduled' : 'published',
    scheduled_at: scheduled ? (input.scheduledAt as number) : null,
    origin: input.origin,
    created_at: now,
    updated_at: now,
  } satisfies Omit<PostRecord, 'id'>);
  if (!scheduled && input.announce !== false) announcePost(ctx, post);
  return post;
}

/** Stores a comment and fires comment.created (spec: Events, "Comment endpoints fire the three comment events"). */
export function createComment(ctx: SandboxContext, post: PostRecord, body: string, authorId: number, origin: 'api' | 'employee'): CommentRecord {
  const now = ctx.now();
  const comment = ctx.db.insert(POSTS_KIND.comments, {
    post_id: post.id,
    wall_id: post.wall_id,
    body,
    author_id: authorId,
    origin,
    created_at: now,
    updated_at: now,
  } satisfies Omit<CommentRecord, 'id'>);
  announceComment(ctx, 'comment.created', comment);
  return comment;
}
