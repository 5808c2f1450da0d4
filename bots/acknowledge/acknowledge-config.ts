import { DurationSchema, z } from 'intrabot';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const TimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM');

/** When reminders may go out, on the tenant's wall clock. */
export const WorkingHoursSchema = z.object({
  /** Three-letter day names (`MON`...`SUN`). */
  days: z.array(z.enum(DAYS)).min(1).default(['MON', 'TUE', 'WED', 'THU', 'FRI']),
  /** `HH:MM`, inclusive. */
  from: TimeSchema.default('09:00'),
  /** `HH:MM`, exclusive; after `from`. */
  to: TimeSchema.default('17:00'),
});
export type WorkingHours = z.output<typeof WorkingHoursSchema>;

export const AcknowledgeConfigSchema = z.object({
  /** Confirmable announcements published in the admin interface become rounds by themselves (`announcement.published`). */
  track_published: z.boolean().default(false),
  /** How long after publication the first reminder is due. */
  remind_after: DurationSchema.default(DAY_MS),
  /** How long after one reminder round the next is due. */
  remind_every: DurationSchema.default(DAY_MS),
  /** At most this many reminders per employee and announcement; 0: none. */
  max_reminders: z.coerce.number().int().min(0).default(2),
  working_hours: WorkingHoursSchema.prefault({}),
  /** At most this many reminders queued per run; the next run carries on where this one stopped. */
  per_run: z.coerce.number().int().positive().default(500),
  /** How long after publication the round ends with the final report to its author. */
  close_after: DurationSchema.default(7 * DAY_MS),
  templates: z
    .object({
      reminder: z.string().min(1).default('reminder'),
      report: z.string().min(1).default('report'),
      tracking: z.string().min(1).default('tracking'),
    })
    .prefault({}),
});

export type AcknowledgeConfig = z.output<typeof AcknowledgeConfigSchema>;
