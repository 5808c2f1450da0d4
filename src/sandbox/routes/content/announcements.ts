import { z } from 'zod';
import { AnnouncementCreateSchema, AnnouncementUpdateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { validate } from '../../http/validate';
import { isoDate } from '../../time';
import { applyArticleUpdate, articleBody, articleForCreate, checkArticleUpdate } from './article-body';
import { CONTENT_KIND, type AnnouncementRecord, type ConfirmationRecord } from './records';
import { checkGroupIds, embedAuthor, embedGroups, findOr404, registerStatusListAndGet } from './shared';

/**
 * spec: Announcement.starts_at — a date, never null. Nothing sets it through the API, so the sandbox
 * reads it as the platform would fill it: an announcement starts on the day it is published (a
 * draft, on the day it was created, until it is published).
 */
function startsAt(ctx: SandboxContext, a: AnnouncementRecord): string {
  return a.starts_at ?? isoDate(a.published_at ?? a.created_at, ctx.settings.timezone);
}

export function serializeAnnouncement(ctx: SandboxContext, a: AnnouncementRecord): Record<string, unknown> {
  const confirmations = ctx.db.filter<ConfirmationRecord>(CONTENT_KIND.confirmations, (c) => c.announcement_id === a.id).length;
  return {
    id: a.id,
    article_id: a.article_id,
    title: a.title,
    subtitle: a.subtitle,
    body: articleBody(ctx, a.article_id) ?? '',
    author: embedAuthor(ctx, a.author_id, ['email', 'avatar_url']),
    groups: embedGroups(ctx, a.group_ids),
    is_published: a.is_published,
    is_commentable: a.is_commentable,
    is_confirmable: a.is_confirmable,
    is_pinned: a.is_pinned,
    comments_count: 0,
    completions_count: 0,
    confirmations_count: confirmations,
    starts_at: startsAt(ctx, a),
    published_at: ctx.isoOrNull(a.published_at),
    created_at: ctx.iso(a.created_at),
    updated_at: ctx.iso(a.updated_at),
  };
}

/** spec: Events — `announcement.published` fires whenever an announcement becomes published. */
function announcePublished(ctx: SandboxContext, a: AnnouncementRecord): void {
  ctx.events.emit({ event: 'announcement.published', payload: serializeAnnouncement(ctx, a) });
}

/** What the API and the control route both create; the API cannot make confirmable announcements. */
export const NewAnnouncementSchema = z.object({
  title: z.string(),
  body: z.string().optional(),
  subtitle: z.string().nullable().optional(),
  groups: z.array(z.number().int()).optional(),
  article_id: z.number().int().optional(),
  is_published: z.boolean(),
  is_confirmable: z.boolean().default(false),
});
export type NewAnnouncement = z.input<typeof NewAnnouncementSchema>;

/** Creates an announcement; `announce: false` (the seed) stores it without firing `announcement.published`. */
export function createAnnouncement(ctx: SandboxContext, input: NewAnnouncement, authorId: number, announce = true): AnnouncementRecord {
  const fields = NewAnnouncementSchema.parse(input);
  checkGroupIds(ctx, fields.groups);
  // the API requires body or article_id; an empty body stands in for neither (control route callers)
  const article_id = articleForCreate(ctx, { ...fields, body: fields.body ?? '' }, fields.title);
  const now = ctx.now();
  const record = ctx.db.insert(CONTENT_KIND.announcements, {
    title: fields.title,
    subtitle: fields.subtitle ?? null,
    article_id: article_id as number,
    author_id: authorId,
    group_ids: fields.groups ?? [],
    is_published: fields.is_published,
    is_commentable: true,
    is_confirmable: fields.is_confirmable,
    is_pinned: false,
    starts_at: null,
    published_at: fields.is_published ? now : null,
    created_at: now,
    updated_at: now,
  }) as AnnouncementRecord;
  if (record.is_published && announce) announcePublished(ctx, record);
  return record;
}

function updateAnnouncement(ctx: SandboxContext, current: AnnouncementRecord, body: unknown): AnnouncementRecord {
  const fields = validate(AnnouncementUpdateSchema, body);
  checkGroupIds(ctx, fields.groups);
  checkArticleUpdate(ctx, current.article_id, fields);
  const now = ctx.now();
  const becomesPublished = fields.is_published === true && !current.is_published;
  const patch: Partial<AnnouncementRecord> = { updated_at: now };
  if (fields.title !== undefined) patch.title = fields.title;
  if (fields.subtitle !== undefined) patch.subtitle = fields.subtitle;
  if (fields.groups !== undefined) patch.group_ids = fields.groups;
  if (fields.is_published !== undefined) {
    patch.is_published = fields.is_published;
    patch.published_at = fields.is_published ? (current.published_at ?? now) : null;
  }
  patch.article_id = applyArticleUpdate(ctx, current.article_id, fields, fields.title ?? current.title) ?? current.article_id;
  const next = ctx.db.update<AnnouncementRecord>(CONTENT_KIND.announcements, current.id, patch) as AnnouncementRecord;
  if (becomesPublished) announcePublished(ctx, next);
  return next;
}

function findAnnouncement(ctx: SandboxContext, rawId: unknown): AnnouncementRecord {
  return findOr404<AnnouncementRecord>(ctx, CONTENT_KIND.announcements, rawId);
}

/** spec: Announcements */
export function registerAnnouncements(router: ApiRouter, ctx: SandboxContext): void {
  registerStatusListAndGet<AnnouncementRecord>(router, ctx, {
    path: '/announcements',
    scope: 'read:announcements',
    kind: CONTENT_KIND.announcements,
    serialize: (a) => serializeAnnouncement(ctx, a),
  });

  router.route(
    'POST',
    '/announcements',
    'write:announcements',
    (request, auth) => {
      const fields = validate(AnnouncementCreateSchema, request.body);
      return { data: serializeAnnouncement(ctx, createAnnouncement(ctx, fields, auth.actor.id)) };
    },
    { status: 201 },
  );

  router.route('PUT', '/announcements/{id}', 'write:announcements', (request) => {
    const { id } = request.params as { id: string };
    return { data: serializeAnnouncement(ctx, updateAnnouncement(ctx, findAnnouncement(ctx, id), request.body)) };
  });

  router.route(
    'DELETE',
    '/announcements/{id}',
    'write:announcements',
    (request) => {
      const { id } = request.params as { id: string };
      const announcement = findAnnouncement(ctx, id);
      ctx.db.remove(CONTENT_KIND.announcements, announcement.id);
      for (const c of ctx.db.filter<ConfirmationRecord>(CONTENT_KIND.confirmations, (row) => row.announcement_id === announcement.id)) {
        ctx.db.remove(CONTENT_KIND.confirmations, c.id);
      }
      return undefined;
    },
    { status: 204 },
  );
}
