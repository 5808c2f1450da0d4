import { EventCreateSchema, EventUpdateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { validationError } from '../../http/sandbox-error';
import { validate } from '../../http/validate';
import { applyArticleUpdate, articleBody, articleForCreate, checkArticleUpdate } from './article-body';
import { dueForPublication, nextPublication, type EventPublication, type PublicationInput } from './event-state';
import { CONTENT_KIND, type EventRecord } from './records';
import { checkGroupIds, embedAuthor, embedGroups, findOr404, registerStatusListAndGet } from './shared';

export function serializeEvent(ctx: SandboxContext, e: EventRecord): Record<string, unknown> {
  return {
    id: e.id,
    article_id: e.article_id,
    title: e.title,
    body: articleBody(ctx, e.article_id) ?? '',
    starts_at: e.starts_at,
    starts_time: e.starts_time,
    // spec: Event.ends_at is a date (never null): an event sent without an end ends on its start date
    ends_at: e.ends_at ?? e.starts_at,
    ends_time: e.ends_time,
    location: e.location,
    // spec: Event — the author is a reduced user { id, name, email, avatar_url }
    author: embedAuthor(ctx, e.author_id, ['email', 'avatar_url']),
    groups: embedGroups(ctx, e.group_ids),
    is_published: e.is_published,
    comments_count: 0,
    completions_count: 0,
    published_at: ctx.isoOrNull(e.published_at),
    scheduled_at: ctx.isoOrNull(e.scheduled_at),
    created_at: ctx.iso(e.created_at),
    updated_at: ctx.iso(e.updated_at),
  };
}

function publicationOrThrow(current: EventPublication | undefined, input: PublicationInput, now: number): EventPublication {
  const result = nextPublication(current, input, now);
  if (!result.ok) throw validationError(result.field, result.message);
  return result.state;
}

function publishAt(value: string | null | undefined): number | null | undefined {
  return value === undefined || value === null ? value : Date.parse(value);
}

/** spec: Events — `ends_at` on or after `starts_at`, checked against the stored dates on update. */
function checkDates(startsAt: string, endsAt: string | null): void {
  if (endsAt !== null && endsAt < startsAt) throw validationError('ends_at', 'ends_at must be on or after starts_at');
}

/** Creates an event (a draft by default); exported for the seed. */
export function createEvent(ctx: SandboxContext, body: unknown, authorId: number): EventRecord {
  const fields = validate(EventCreateSchema, body);
  checkGroupIds(ctx, fields.groups);
  const state = publicationOrThrow(undefined, { is_published: fields.is_published, publish_at: publishAt(fields.publish_at) }, ctx.now());
  const article_id = articleForCreate(ctx, fields, fields.title) as number;
  const now = ctx.now();
  return ctx.db.insert(CONTENT_KIND.events, {
    title: fields.title,
    article_id,
    starts_at: fields.starts_at,
    starts_time: fields.starts_time ?? null,
    ends_at: fields.ends_at ?? null,
    ends_time: fields.ends_time ?? null,
    location: fields.location ?? null,
    author_id: authorId,
    group_ids: fields.groups ?? [],
    ...state,
    created_at: now,
    updated_at: now,
  }) as EventRecord;
}

function updateEvent(ctx: SandboxContext, current: EventRecord, body: unknown): EventRecord {
  const fields = validate(EventUpdateSchema, body);
  checkGroupIds(ctx, fields.groups);
  checkDates(fields.starts_at ?? current.starts_at, fields.ends_at === undefined ? current.ends_at : fields.ends_at);
  checkArticleUpdate(ctx, current.article_id, fields);
  const state = publicationOrThrow(current, { is_published: fields.is_published, publish_at: publishAt(fields.publish_at) }, ctx.now());
  const patch: Partial<EventRecord> = { ...state, updated_at: ctx.now() };
  for (const key of ['title', 'starts_at', 'starts_time', 'ends_at', 'ends_time', 'location'] as const) {
    if (fields[key] !== undefined) Object.assign(patch, { [key]: fields[key] });
  }
  if (fields.groups !== undefined) patch.group_ids = fields.groups;
  patch.article_id = applyArticleUpdate(ctx, current.article_id, fields, fields.title ?? current.title) ?? current.article_id;
  return ctx.db.update<EventRecord>(CONTENT_KIND.events, current.id, patch) as EventRecord;
}

/** spec: Event publication state — a scheduled event goes live when the clock reaches `publish_at`. */
export function publishDueEvents(ctx: SandboxContext, now: number): void {
  for (const event of ctx.db.filter<EventRecord>(CONTENT_KIND.events, (e) => e.scheduled_at !== null && e.scheduled_at <= now)) {
    const next = dueForPublication(event, now);
    if (next) ctx.db.update<EventRecord>(CONTENT_KIND.events, event.id, { ...next, updated_at: now });
  }
}

function findEvent(ctx: SandboxContext, rawId: unknown): EventRecord {
  return findOr404<EventRecord>(ctx, CONTENT_KIND.events, rawId);
}

/** spec: Events */
export function registerEvents(router: ApiRouter, ctx: SandboxContext): void {
  registerStatusListAndGet<EventRecord>(router, ctx, {
    path: '/events',
    scope: 'read:events',
    kind: CONTENT_KIND.events,
    serialize: (e) => serializeEvent(ctx, e),
  });

  router.route('POST', '/events', 'write:events', (request, auth) => ({ data: serializeEvent(ctx, createEvent(ctx, request.body, auth.actor.id)) }), {
    status: 201,
  });

  router.route('PUT', '/events/{id}', 'write:events', (request) => {
    const { id } = request.params as { id: string };
    return { data: serializeEvent(ctx, updateEvent(ctx, findEvent(ctx, id), request.body)) };
  });

  router.route(
    'DELETE',
    '/events/{id}',
    'write:events',
    (request) => {
      const { id } = request.params as { id: string };
      ctx.db.remove(CONTENT_KIND.events, findEvent(ctx, id).id);
      return undefined;
    },
    { status: 204 },
  );
}
