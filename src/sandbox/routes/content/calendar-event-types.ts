import { CalendarEventTypeCreateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { validate } from '../../http/validate';
import { CONTENT_KIND, type CalendarEventTypeRecord } from './records';

/** spec: not shown — `{ id, name, color, is_published, created_at }` (src/api/schemas/calendar-event-type.ts). */
export function serializeCalendarEventType(ctx: SandboxContext, t: CalendarEventTypeRecord): Record<string, unknown> {
  return { id: t.id, name: t.name, color: t.color, is_published: t.is_published, created_at: ctx.iso(t.created_at) };
}

export function insertCalendarEventType(ctx: SandboxContext, fields: { name: string; color?: string | null; is_published?: boolean }): CalendarEventTypeRecord {
  const now = ctx.now();
  return ctx.db.insert(CONTENT_KIND.calendarEventTypes, {
    name: fields.name,
    color: fields.color ?? null,
    is_published: fields.is_published ?? true,
    created_at: now,
    updated_at: now,
  });
}

export function registerCalendarEventTypes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/calendar-event-types', 'read:calendar_event_types', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    return paginate(request, ctx.db.all<CalendarEventTypeRecord>(CONTENT_KIND.calendarEventTypes), page, (t) => serializeCalendarEventType(ctx, t));
  });

  router.route(
    'POST',
    '/calendar-event-types',
    'write:calendar_event_types',
    (request) => {
      const fields = validate(CalendarEventTypeCreateSchema, request.body);
      return { data: serializeCalendarEventType(ctx, insertCalendarEventType(ctx, fields)) };
    },
    { status: 201 },
  );
}
