import { DurationSchema, z } from 'intrabot';

const DAY_MS = 86_400_000;

/** One recurring announcement or event: published by the job of that name (a `schedules` entry). */
export const AnnouncementJobSchema = z.object({
  job: z.string().min(1),
  as: z.enum(['announcement', 'event']).default('announcement'),
  title: z.string().min(1),
  /** A template of the bot (`templates/<name>.hbs`), rendered with `data`, `date` (the slot) and, for events, `starts_at`. */
  template: z.string().min(1),
  data: z.record(z.string(), z.unknown()).default({}),
  /** Group ids or names; empty: company-wide. */
  groups: z.array(z.union([z.int().positive(), z.string().min(1)])).default([]),
  /** Events: how long after the job's slot the event takes place (its day, in the tenant's zone). */
  starts_in: DurationSchema.default(0),
  starts_time: z
    .string()
    .regex(/^\d{2}:\d{2}$/, 'expected HH:MM')
    .optional(),
  location: z.string().min(1).optional(),
  /** Events: published this long before `starts_in` with `publish_at`; absent: published at once. */
  publish_in_advance: DurationSchema.optional(),
});

export type AnnouncementJob = z.output<typeof AnnouncementJobSchema>;

export const ReminderConfigSchema = z.object({
  enabled: z.boolean().default(true),
  /** How long after publication an employee who has not confirmed gets the reminder. */
  remind_after: DurationSchema.default(DAY_MS),
  /** Announcements published longer ago than this are left alone (no reminders for old news). */
  max_age: DurationSchema.default(7 * DAY_MS),
  template: z.string().min(1).default('reminder'),
});

export const AnnouncerConfigSchema = z.object({
  announcements: z.array(AnnouncementJobSchema).default([]),
  reminders: ReminderConfigSchema.prefault({}),
});

export type AnnouncerConfig = z.output<typeof AnnouncerConfigSchema>;
