import { CalendarEntryCreateSchema, CalendarEntryUpdateSchema, type CalendarEntryCreate } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { validationError } from '../../http/sandbox-error';
import { validate } from '../../http/validate';
import type { UserRecord } from '../../state/records';
import { applyArticleUpdate, articleBody, articleForCreate, checkArticleUpdate, emptyArticle } from './article-body';
import { serializeCalendarEventType } from './calendar-event-types';
import { CONTENT_KIND, type CalendarEntryRecord, type CalendarEventTypeRecord } from './records';
import { checkGroupIds, embedAuthor, embedGroups, findOr404, registerStatusListAndGet } from './shared';

/**
 * spec: Calendar entry — `starts_at, ends_at` are dates and `starts_time, ends_time` times, none of
 * them null. What was not sent is stored as not sent and read as the platform fills it: an entry
 * without an end ends on its start date, without a start time starts at 00:00 and without an end
 * time ends at 23:59 (an entry sent without times is all-day). Read rather than stored, an unsent
 * end keeps following the start when an update moves it.
 */
export const ALL_DAY = { starts_time: '00:00', ends_time: '23:59' } as const;

export function serializeCalendarEntry(ctx: SandboxContext, e: CalendarEntryRecord): Record<string, unknown> {
  const type = ctx.db.get<CalendarEventTypeRecord>(CONTENT_KIND.calendarEventTypes, e.calendar_event_type_id);
  return {
    id: e.id,
    title: e.title,
    body: articleBody(ctx, e.article_id),
    starts_at: e.starts_at,
    ends_at: e.ends_at ?? e.starts_at,
    starts_time: e.starts_time ?? ALL_DAY.starts_time,
    ends_time: e.ends_time ?? ALL_DAY.ends_time,
    // spec: Calendar entry — author { id, name, email }
    author: embedAuthor(ctx, e.author_id, ['email']),
    groups: embedGroups(ctx, e.group_ids),
    calendar_event_type: type ? serializeCalendarEventType(ctx, type) : null,
    article_id: e.article_id,
    is_published: e.is_published,
    created_at: ctx.iso(e.created_at),
    updated_at: ctx.iso(e.updated_at),
  };
}

/**
 * spec: Calendar entries — without `calendar_event_type_id` the company's published type named
 * "Default" is used; when there is none the field is required. A sent id must name an existing type.
 */
function resolveEventType(ctx: SandboxContext, id: number | undefined): number {
  if (id !== undefined) {
    if (!ctx.db.get(CONTENT_KIND.calendarEventTypes, id)) throw validationError('calendar_event_type_id', `calendar event type ${id} does not exist`);
    return id;
  }
  const fallback = ctx.db.find<CalendarEventTypeRecord>(CONTENT_KIND.calendarEventTypes, (t) => t.is_published && t.name === 'Default');
  if (!fallback) throw validationError('calendar_event_type_id', 'is required: the company has no published "Default" calendar event type');
  return fallback.id;
}

/**
 * Creates a calendar entry as POST /calendar-entries does (the body is validated again: the
 * "Default" type rule, `is_published` default true) and returns it as the API answers it. Throws `SandboxHttpError`
 * (422 naming the field) for bad input; nothing is stored then.
 *
 * @example
 * // the incoming webhook's `calendar_entry` action
 * const entry = createCalendarEntry(ctx, { title: 'Deploy freeze', starts_at: '2026-12-20' }, botUser);
 */
export function createCalendarEntry(ctx: SandboxContext, fields: CalendarEntryCreate, author: UserRecord & { id: number }): Record<string, unknown> {
  return serializeCalendarEntry(ctx, insertCalendarEntry(ctx, fields, author.id));
}

function insertCalendarEntry(ctx: SandboxContext, body: unknown, authorId: number): CalendarEntryRecord {
  const fields = validate(CalendarEntryCreateSchema, body);
  checkGroupIds(ctx, fields.groups);
  const typeId = resolveEventType(ctx, fields.calendar_event_type_id);
  // spec: Calendar entry.article_id is an integer: an entry without a description has an empty article (body null)
  const article_id = articleForCreate(ctx, fields, fields.title) ?? emptyArticle(ctx, fields.title).id;
  const now = ctx.now();
  return ctx.db.insert(CONTENT_KIND.calendarEntries, {
    title: fields.title,
    article_id,
    starts_at: fields.starts_at,
    starts_time: fields.starts_time ?? null,
    ends_at: fields.ends_at ?? null,
    ends_time: fields.ends_time ?? null,
    author_id: authorId,
    group_ids: fields.groups ?? [],
    calendar_event_type_id: typeId,
    is_published: fields.is_published,
    created_at: now,
    updated_at: now,
  }) as CalendarEntryRecord;
}

function updateCalendarEntry(ctx: SandboxContext, current: CalendarEntryRecord, body: unknown): CalendarEntryRecord {
  const fields = validate(CalendarEntryUpdateSchema, body);
  checkGroupIds(ctx, fields.groups);
  const endsAt = fields.ends_at === undefined ? current.ends_at : fields.ends_at;
  if (endsAt !== null && endsAt < (fields.starts_at ?? current.starts_at)) throw validationError('ends_at', 'ends_at must be on or after starts_at');
  const typeId = fields.calendar_event_type_id === undefined ? current.calendar_event_type_id : resolveEventType(ctx, fields.calendar_event_type_id);
  checkArticleUpdate(ctx, current.article_id, fields);
  const patch: Partial<CalendarEntryRecord> = { calendar_event_type_id: typeId, updated_at: ctx.now() };
  for (const key of ['title', 'starts_at', 'starts_time', 'ends_at', 'ends_time', 'is_published'] as const) {
    if (fields[key] !== undefined) Object.assign(patch, { [key]: fields[key] });
  }
  if (fields.groups !== undefined) patch.group_ids = fields.groups;
  patch.article_id = applyArticleUpdate(ctx, current.article_id, fields, fields.title ?? current.title) ?? emptyArticle(ctx, fields.title ?? current.title).id;
  return ctx.db.update<CalendarEntryRecord>(CONTENT_KIND.calendarEntries, current.id, patch) as CalendarEntryRecord;
}

function findEntry(ctx: SandboxContext, rawId: unknown): CalendarEntryRecord {
  return findOr404<CalendarEntryRecord>(ctx, CONTENT_KIND.calendarEntries, rawId);
}

/** spec: Calendar entries */
export function registerCalendarEntries(router: ApiRouter, ctx: SandboxContext): void {
  registerStatusListAndGet<CalendarEntryRecord>(router, ctx, {
    path: '/calendar-entries',
    scope: 'read:calendar_entries',
    kind: CONTENT_KIND.calendarEntries,
    serialize: (e) => serializeCalendarEntry(ctx, e),
  });

  router.route(
    'POST',
    '/calendar-entries',
    'write:calendar_entries',
    (request, auth) => ({ data: serializeCalendarEntry(ctx, insertCalendarEntry(ctx, request.body, auth.actor.id)) }),
    {
      status: 201,
    },
  );

  // spec: Calendar entries — PUT or PATCH, both change the sent fields only
  router.route(['PUT', 'PATCH'], '/calendar-entries/{id}', 'write:calendar_entries', (request) => {
    const { id } = request.params as { id: string };
    return { data: serializeCalendarEntry(ctx, updateCalendarEntry(ctx, findEntry(ctx, id), request.body)) };
  });

  router.route(
    'DELETE',
    '/calendar-entries/{id}',
    'write:calendar_entries',
    (request) => {
      const { id } = request.params as { id: string };
      ctx.db.remove(CONTENT_KIND.calendarEntries, findEntry(ctx, id).id);
      return undefined;
    },
    { status: 204 },
  );
}
