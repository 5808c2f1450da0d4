import { z } from 'zod';

/**
 * Stored shapes of the content module: announcements and their confirmations, events, calendar
 * entries and their event types, and articles (the content behind all three). Times are epoch ms,
 * dates `YYYY-MM-DD`, times of day `HH:MM`.
 */
export const CONTENT_KIND = {
  announcements: 'announcements',
  confirmations: 'confirmations',
  events: 'events',
  calendarEntries: 'calendar_entries',
  calendarEventTypes: 'calendar_event_types',
  articles: 'articles',
} as const;

/**
 * An article. `origin` tells the two kinds apart (spec: Announcements, update rule): `articles` was
 * built through POST /articles ("rich article content", which a later `body` must not replace),
 * `body` was made by the sandbox from the `body` sent with the announcement, event or entry.
 */
export const ArticleRecordSchema = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  /** Null for the empty article of a calendar entry without a description. */
  body: z.string().nullable(),
  origin: z.enum(['articles', 'body']),
  created_at: z.number(),
  updated_at: z.number(),
});
export type ArticleRecord = z.infer<typeof ArticleRecordSchema>;

export const AnnouncementRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string().nullable(),
  article_id: z.number().int(),
  author_id: z.number().int(),
  group_ids: z.array(z.number().int()),
  is_published: z.boolean(),
  is_commentable: z.boolean(),
  is_confirmable: z.boolean(),
  is_pinned: z.boolean(),
  starts_at: z.string().nullable(),
  published_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AnnouncementRecord = z.infer<typeof AnnouncementRecordSchema>;

export const ConfirmationRecordSchema = z.object({
  id: z.number().int(),
  announcement_id: z.number().int(),
  user_id: z.number().int(),
  confirmed_at: z.number(),
  created_at: z.number(),
});
export type ConfirmationRecord = z.infer<typeof ConfirmationRecordSchema>;

export const EventRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  article_id: z.number().int(),
  starts_at: z.string(),
  starts_time: z.string().nullable(),
  ends_at: z.string().nullable(),
  ends_time: z.string().nullable(),
  location: z.string().nullable(),
  author_id: z.number().int(),
  group_ids: z.array(z.number().int()),
  is_published: z.boolean(),
  published_at: z.number().nullable(),
  /** spec: Event publication state — set only while a publication is scheduled. */
  scheduled_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type EventRecord = z.infer<typeof EventRecordSchema>;

export const CalendarEventTypeRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  is_published: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type CalendarEventTypeRecord = z.infer<typeof CalendarEventTypeRecordSchema>;

export const CalendarEntryRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Always set on new entries (an empty article when there is no description); null only in state kept from older versions. */
  article_id: z.number().int().nullable(),
  starts_at: z.string(),
  starts_time: z.string().nullable(),
  ends_at: z.string().nullable(),
  ends_time: z.string().nullable(),
  author_id: z.number().int(),
  group_ids: z.array(z.number().int()),
  calendar_event_type_id: z.number().int(),
  is_published: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type CalendarEntryRecord = z.infer<typeof CalendarEntryRecordSchema>;
