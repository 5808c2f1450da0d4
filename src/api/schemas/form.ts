import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common';

/** A form. spec: not shown — only `id` is assumed; everything else passes through. */
export const FormSchema = z.looseObject({
  id: IdSchema,
  title: z.string().optional(),
  is_anonymous: z.boolean().optional(),
  created_at: DateTimeSchema.optional(),
});
export type Form = z.infer<typeof FormSchema>;
