import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common';

/** A form response. spec: not shown (the formresponse events name `status`, `deadline_at`, `deleted_at`). */
export const FormResponseSchema = z.looseObject({
  id: IdSchema,
  form_id: IdSchema.optional(),
  status: z.string().nullable().optional(),
  deadline_at: DateTimeSchema.nullable().optional(),
  deleted_at: DateTimeSchema.nullable().optional(),
  created_at: DateTimeSchema.optional(),
  updated_at: DateTimeSchema.optional(),
});
export type FormResponse = z.infer<typeof FormResponseSchema>;
