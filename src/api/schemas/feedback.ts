import { z } from 'zod';
import { DateTimeSchema, IdSchema, requiredText } from './common';

/** POST /feedback body. spec: not shown — `{ message, category? }`. */
export const FeedbackCreateSchema = z.strictObject({
  message: requiredText('message'),
  category: z.string({ error: 'category must be a string' }).optional(),
});
export type FeedbackCreate = z.input<typeof FeedbackCreateSchema>;

/** POST /feedback answer `data`. spec: not shown. */
export const FeedbackSchema = z.looseObject({ id: IdSchema, message: z.string(), created_at: DateTimeSchema });
export type Feedback = z.infer<typeof FeedbackSchema>;
