import { z } from 'zod';
import { IdSchema, requiredText } from './common';

/**
 * A calendar event type. spec: not shown — calendar entries fall back to the published type named
 * "Default" (spec: Calendar entries), so `name` and `is_published` are assumed.
 */
export const CalendarEventTypeSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  is_published: z.boolean().optional(),
  color: z.string().nullable().optional(),
});
export type CalendarEventType = z.infer<typeof CalendarEventTypeSchema>;

/** POST /calendar-event-types body. spec: not shown — `name` required, other fields pass through. */
export const CalendarEventTypeCreateSchema = z.looseObject({
  name: requiredText('name'),
  is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
  color: z.string({ error: 'color must be a string' }).optional(),
});
export type CalendarEventTypeCreate = z.input<typeof CalendarEventTypeCreateSchema>;
