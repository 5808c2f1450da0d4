import { z } from 'zod';
import {
  DateInputSchema,
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  GroupIdsInputSchema,
  IdInputSchema,
  IdSchema,
  TimeInputSchema,
  TimeSchema,
  optionalText,
  requiredText,
} from './common';
import { EmbeddedGroupSchema } from './group';
import { ReducedUserSchema } from './user';
import { refuseBodyWithArticle, requireBodyXorArticle } from './article-content';

/** spec: Event */
export const EventSchema = z.looseObject({
  id: IdSchema,
  article_id: IdSchema.nullable(),
  title: z.string(),
  body: z.string(),
  starts_at: DateSchema,
  starts_time: TimeSchema.nullable(),
  // spec: a date; null tolerated for an event sent without an end: hosts have answered null (issue #12)
  ends_at: DateSchema.nullable(),
  ends_time: TimeSchema.nullable(),
  location: z.string().nullable(),
  author: ReducedUserSchema,
  groups: z.array(EmbeddedGroupSchema),
  is_published: z.boolean(),
  comments_count: z.int(),
  completions_count: z.int(),
  published_at: DateTimeSchema.nullable(),
  scheduled_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Event = z.infer<typeof EventSchema>;

interface DateRange {
  starts_at?: string | undefined;
  ends_at?: string | null | undefined;
}

/** spec: Events — `ends_at` is on or after `starts_at` (checked when both are sent). */
export function refuseEndBeforeStart(value: DateRange, ctx: z.RefinementCtx): void {
  // YYYY-MM-DD compares correctly as text
  if (value.starts_at && value.ends_at && value.ends_at < value.starts_at) {
    ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'ends_at must be on or after starts_at' });
  }
}

const eventFields = {
  title: requiredText('title'),
  body: requiredText('body').optional(),
  article_id: IdInputSchema.optional(),
  starts_at: DateInputSchema,
  starts_time: TimeInputSchema.nullable().optional(),
  ends_at: DateInputSchema.nullable().optional(),
  ends_time: TimeInputSchema.nullable().optional(),
  location: optionalText('location'),
  groups: GroupIdsInputSchema.optional(),
  is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
  // spec: Event publication state — future datetime schedules; null cancels a pending schedule.
  // "In the future" depends on the platform's clock: the platform (or the sandbox) checks it.
  publish_at: DateTimeInputSchema.nullable().optional(),
};

/** POST /events body (spec: Events): a draft unless `is_published` or `publish_at` say otherwise. */
export const EventCreateSchema = z.strictObject(eventFields).superRefine((value, ctx) => {
  requireBodyXorArticle(value, ctx);
  refuseEndBeforeStart(value, ctx);
});
export type EventCreate = z.input<typeof EventCreateSchema>;

/** PUT /events/{id} body: all fields optional; also changes publication state (spec: Events). */
export const EventUpdateSchema = z
  .strictObject({
    ...eventFields,
    title: eventFields.title.optional(),
    starts_at: eventFields.starts_at.optional(),
  })
  .superRefine((value, ctx) => {
    refuseBodyWithArticle(value, ctx);
    refuseEndBeforeStart(value, ctx);
  });
export type EventUpdate = z.input<typeof EventUpdateSchema>;
