import { z } from 'zod';
import type { SandboxContext } from '../context';
import { createAnnouncement } from '../routes/content/announcements';
import { createCalendarEntry } from '../routes/content/calendar-entries';
import { insertCalendarEventType } from '../routes/content/calendar-event-types';
import { createEvent } from '../routes/content/events';
import { insertLearning } from '../routes/content/learning';
import { LEARNING_KIND } from '../routes/content/learning-records';
import { KIND, type UserRecord } from '../state/records';
import { isoDate, zonedMidnight } from '../time';
import { directoryRefs } from './directory-refs';

const Id = z.number().int().positive();

/** What the content seed wrote (meta `seed.content`), for the achievements seed and for tests. */
export const ContentSeedRefsSchema = z.object({
  default_event_type_id: Id,
  handbook_id: Id,
  draft_handbook_id: Id,
  course_id: Id,
  onboarding_journey_id: Id,
  custom_journey_id: Id,
  offboarding_journey_id: Id,
  confirmable_announcement_id: Id,
  announcement_id: Id,
  published_event_id: Id,
  scheduled_event_id: Id,
});
export type ContentSeedRefs = z.infer<typeof ContentSeedRefsSchema>;

export const CONTENT_REFS_KEY = 'seed.content';

export function contentRefs(ctx: SandboxContext): ContentSeedRefs | undefined {
  const raw = ctx.db.getMeta(CONTENT_REFS_KEY);
  return raw === undefined ? undefined : ContentSeedRefsSchema.parse(raw);
}

const DAY = 86_400_000;

function learning(ctx: SandboxContext) {
  const h = (title: string, is_published = true) => insertLearning(ctx, LEARNING_KIND.handbooks, { title, is_published }).id;
  const c = (title: string) => insertLearning(ctx, LEARNING_KIND.courses, { title, is_published: true }).id;
  const j = (title: string, type: string) => insertLearning(ctx, LEARNING_KIND.journeys, { title, type, is_published: true }).id;
  const ids = {
    handbook_id: h('Employee handbook'),
    draft_handbook_id: h('Travel policy (draft)', false),
    course_id: c('Data protection basics'),
    onboarding_journey_id: j('Welcome aboard', 'onboarding'),
    custom_journey_id: j('Mentoring programme', 'custom'),
    offboarding_journey_id: j('Farewell checklist', 'offboarding'),
  };
  h('IT security handbook');
  c('Leading a team');
  ctx.db.insert(LEARNING_KIND.certificateTypes, { name: 'First aid', created_at: ctx.now() });
  return ids;
}

/** The day after today, at `hour` in the customer's zone. */
function tomorrowAt(ctx: SandboxContext, hour: number): number {
  return zonedMidnight(ctx.today(), ctx.settings.timezone) + DAY + hour * 3_600_000;
}

function dateIn(ctx: SandboxContext, days: number): string {
  return isoDate(zonedMidnight(ctx.today(), ctx.settings.timezone) + days * DAY + 12 * 3_600_000, ctx.settings.timezone);
}

/**
 * The demo content: a "Default" calendar event type, handbooks, courses and journeys (one
 * offboarding), a published confirmable announcement for a department, events (one published, one
 * scheduled for tomorrow) and a calendar entry. Nothing fires events while seeding.
 */
export function seedContent(ctx: SandboxContext): void {
  const refs = directoryRefs(ctx);
  const author = refs?.admin_user_id ?? ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'default')?.id ?? 1;
  const department = refs?.departments.Engineering;
  const defaultType = insertCalendarEventType(ctx, { name: 'Default', color: '#4a90d9' });
  insertCalendarEventType(ctx, { name: 'Holiday', color: '#7ed321' });
  const ids = learning(ctx);
  const confirmable = createAnnouncement(
    ctx,
    {
      title: 'New security policy',
      body: 'Please read the new security policy and confirm.',
      groups: department ? [department] : [],
      is_published: true,
      is_confirmable: true,
    },
    author,
    false,
  );
  const news = createAnnouncement(ctx, { title: 'Welcome to the sandbox intranet', body: 'Everything here is emulated.', is_published: true }, author, false);
  const published = createEvent(
    ctx,
    { title: 'Summer party', body: 'Food, drinks and music.', starts_at: dateIn(ctx, 7), starts_time: '17:00', location: 'Roof terrace', is_published: true },
    author,
  );
  const scheduled = createEvent(
    ctx,
    {
      title: 'Town hall',
      body: 'Quarterly update from the leadership team.',
      starts_at: dateIn(ctx, 14),
      starts_time: '10:00',
      publish_at: ctx.iso(tomorrowAt(ctx, 9)),
    },
    author,
  );
  const admin = ctx.db.get<UserRecord & { id: number }>(KIND.users, author);
  if (admin) createCalendarEntry(ctx, { title: 'Office closed', starts_at: dateIn(ctx, 30), body: 'Public holiday.' }, admin);
  ctx.db.setMeta(CONTENT_REFS_KEY, {
    default_event_type_id: defaultType.id,
    ...ids,
    confirmable_announcement_id: confirmable.id,
    announcement_id: news.id,
    published_event_id: published.id,
    scheduled_event_id: scheduled.id,
  } satisfies ContentSeedRefs);
}
