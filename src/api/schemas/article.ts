import { z } from 'zod';
import { DateTimeSchema, IdSchema, requiredText } from './common';

/** A standalone article (rich content behind announcements, events, entries). spec: not shown. */
export const ArticleSchema = z.looseObject({
  id: IdSchema,
  title: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  created_at: DateTimeSchema.optional(),
  updated_at: DateTimeSchema.optional(),
});
export type Article = z.infer<typeof ArticleSchema>;

/** POST /articles body. spec: not shown — `body` required, other fields pass through. */
export const ArticleCreateSchema = z.looseObject({
  title: z.string({ error: 'title must be a string' }).optional(),
  body: requiredText('body'),
});
export type ArticleCreate = z.input<typeof ArticleCreateSchema>;
