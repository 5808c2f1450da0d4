import { z } from 'zod';
import {
  DateInputSchema,
  DateSchema,
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
import { MinimalUserSchema } from './user';
import { refuseBodyWithArticle } from './article-content';
import { refuseEndBeforeStart } from './event';

/** spec: Calendar entry — `calendar_event_type`'s inner fields are not listed. */
export const CalendarEntrySchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  body: z.string().nullable(),
  starts_at: DateSchema,
  // spec: dates and times; null tolerated for what was not sent: hosts have answered null (issue #12)
  ends_at: DateSchema.nullable(),
  starts_time: TimeSchema.nullable(),
  ends_time: TimeSchema.nullable(),
  author: MinimalUserSchema,
  groups: z.array(EmbeddedGroupSchema),
  calendar_event_type: z.looseObject({ id: IdSchema.optional(), name: z.string().optional() }).nullable(),
  article_id: IdSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type CalendarEntry = z.infer<typeof CalendarEntrySchema>;

const calendarEntryFields = {
  title: requiredText('title'),
  starts_at: DateInputSchema,
  starts_time: TimeInputSchema.nullable().optional(),
  ends_at: DateInputSchema.nullable().optional(),
  ends_time: TimeInputSchema.nullable().optional(),
  body: optionalText('body'),
  groups: GroupIdsInputSchema.optional(),
  // spec: Calendar entries — when omitted the "Default" type is used; whether one exists is
  // platform state, checked by the platform (or the sandbox), not here.
  calendar_event_type_id: IdInputSchema.optional(),
  article_id: IdInputSchema.optional(),
};

/** POST /calendar-entries body (spec: Calendar entries): `is_published` defaults to true. */
export const CalendarEntryCreateSchema = z
  .strictObject({ ...calendarEntryFields, is_published: z.boolean({ error: 'is_published must be a boolean' }).default(true) })
  .superRefine((value, ctx) => {
    refuseBodyWithArticle(value, ctx);
    refuseEndBeforeStart(value, ctx);
  });
export type CalendarEntryCreate = z.input<typeof CalendarEntryCreateSchema>;

/** PUT or PATCH /calendar-entries/{id} body: sent fields change. */
export const CalendarEntryUpdateSchema = z
  .strictObject({
    ...calendarEntryFields,
    title: calendarEntryFields.title.optional(),
    starts_at: calendarEntryFields.starts_at.optional(),
    is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
  })
  .superRefine((value, ctx) => {
    refuseBodyWithArticle(value, ctx);
    refuseEndBeforeStart(value, ctx);
  });
export type CalendarEntryUpdate = z.input<typeof CalendarEntryUpdateSchema>;
