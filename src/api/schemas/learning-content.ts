import { z } from 'zod';
import { DateTimeSchema, IdSchema, requiredText } from './common';

// Handbooks and courses share one shape (completable content, spec: Trigger configuration): spec: not shown.

/** A handbook or course as listed: `is_published` decides whether an achievement may link it. */
export const LearningContentSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  is_published: z.boolean().optional(),
  created_at: DateTimeSchema.optional(),
});

/** A create body for handbooks and courses. spec: not shown — `title` required, other fields pass through. */
export const LearningContentCreateSchema = z.looseObject({
  title: requiredText('title'),
  description: z.string({ error: 'description must be a string' }).nullable().optional(),
  is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
});
