import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common';
import { EmbeddedUserSchema } from './user';

/**
 * An announcement confirmation. spec: not shown (the announcement.confirmed event says "the
 * confirmation with employee and announcement embedded"; the id is a stable idempotency key).
 */
export const ConfirmationSchema = z.looseObject({
  id: IdSchema,
  announcement_id: IdSchema,
  user: EmbeddedUserSchema,
  announcement: z.looseObject({ id: IdSchema, title: z.string() }).optional(),
  confirmed_at: DateTimeSchema,
  created_at: DateTimeSchema,
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;
