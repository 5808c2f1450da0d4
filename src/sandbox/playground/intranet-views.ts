import type { SandboxContext } from '../context';
import { serializeAnnouncement } from '../routes/content/announcements';
import { serializeCalendarEntry } from '../routes/content/calendar-entries';
import { serializeEvent } from '../routes/content/events';
import { CONTENT_KIND, type AnnouncementRecord, type CalendarEntryRecord, type ConfirmationRecord, type EventRecord } from '../routes/content/records';
import { FORM_KIND, type FormRecord, type FormResponseRecord } from '../routes/forms/form-records';
import { KIND, type UserRecord } from '../state/records';

const SHOWN = 30;

/**
 * The rest of the intranet as one employee sees it, for the playground's News, Forms and People pages:
 * published announcements (newest first, whether each is this person's to confirm and whether they did), published events and
 * calendar entries (soonest first, from today), the forms with this person's responses, and the
 * invitations still pending (someone to register).
 */
export function playgroundIntranet(ctx: SandboxContext, userId: number | undefined): Record<string, unknown> {
  const today = ctx.today();
  const confirmed = new Set(ctx.db.filter<ConfirmationRecord>(CONTENT_KIND.confirmations, (c) => c.user_id === userId).map((c) => c.announcement_id));
  const groups = new Set((ctx.db.get<UserRecord & { id: number }>(KIND.users, userId ?? 0)?.memberships ?? []).map((m) => m.group_id));
  const announcements = ctx.db
    .filter<AnnouncementRecord>(CONTENT_KIND.announcements, (a) => a.is_published)
    .sort((a, b) => (b.published_at ?? b.created_at) - (a.published_at ?? a.created_at))
    .slice(0, SHOWN)
    .map((a) => ({
      ...serializeAnnouncement(ctx, a),
      // whether it is this person's to confirm: company-wide, or addressed to one of their groups
      for_you: a.group_ids.length === 0 || a.group_ids.some((id) => groups.has(id)),
      confirmed_by_you: confirmed.has(a.id),
    }));
  const upcoming = <T extends { starts_at: string; ends_at: string | null; is_published: boolean }>(rows: T[]): T[] =>
    rows
      .filter((r) => r.is_published && (r.ends_at ?? r.starts_at) >= today)
      .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
      .slice(0, SHOWN);
  const responses = ctx.db.filter<FormResponseRecord>(FORM_KIND.responses, (r) => r.user_id === userId && r.deleted_at === null);
  return {
    announcements,
    events: upcoming(ctx.db.all<EventRecord>(CONTENT_KIND.events)).map((e) => serializeEvent(ctx, e)),
    calendar_entries: upcoming(ctx.db.all<CalendarEntryRecord>(CONTENT_KIND.calendarEntries)).map((e) => serializeCalendarEntry(ctx, e)),
    forms: ctx.db.all<FormRecord>(FORM_KIND.forms).map((f) => ({
      id: f.id,
      title: f.title,
      description: f.description,
      type: f.type,
      fields: f.fields,
      your_responses: responses.filter((r) => r.form_id === f.id).map((r) => ({ id: r.id, status: r.status, created_at: ctx.iso(r.created_at) })),
    })),
    pending: ctx.db
      .filter<UserRecord & { id: number }>(KIND.users, (u) => u.status === 'pending' && u.deleted_at === null)
      .map((u) => ({ id: u.id, name: u.name, email: u.email, title: u.title })),
  };
}
