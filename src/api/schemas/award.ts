import { z } from 'zod';
import { DateTimeSchema, IdInputSchema, IdSchema } from './common';
import { AchievementSummarySchema } from './achievement';
import { EmbeddedUserSchema } from './user';
import { PaginationQuerySchema } from './query';

/** spec: Award */
export const AwardSchema = z.looseObject({
  id: IdSchema,
  awarded_at: DateTimeSchema,
  is_manually_added: z.boolean(),
  department: z.looseObject({ id: IdSchema, name: z.string(), type: z.string() }).nullable(),
  assigned_by: EmbeddedUserSchema.nullable(),
  user: EmbeddedUserSchema.optional(),
  achievement: AchievementSummarySchema.optional(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Award = z.infer<typeof AwardSchema>;

/**
 * `awarded_at` of an award row: a date; a time sent along is dropped (spec: Achievements, award
 * request body), so `2026-05-04T15:00:00+02:00` becomes `2026-05-04` as written.
 */
export const AwardDateSchema = z
  .union([z.iso.date(), z.iso.datetime({ offset: true }), z.iso.datetime({ local: true })], {
    error: (issue) => (issue.input === undefined ? 'awarded_at is required' : 'awarded_at must be a date (YYYY-MM-DD)'),
  })
  .transform((value) => value.slice(0, 10));

/** One row of an award request. */
export const AwardRowSchema = z.strictObject({
  user_id: IdInputSchema,
  awarded_at: AwardDateSchema,
  // required for employee_of_the_month: depends on the achievement, checked by the platform
  department_id: IdInputSchema.optional(),
});
export type AwardRow = z.input<typeof AwardRowSchema>;

/** POST /achievements/{id}/awards body: `{ awards: [row, ...] }`, at least one row; failures name `awards.<index>.<field>`. */
export const AwardCreateSchema = z.strictObject({
  awards: z.array(AwardRowSchema, { error: 'awards must be an array of rows' }).min(1, { error: 'awards must contain at least one row' }),
});
export type AwardCreate = z.input<typeof AwardCreateSchema>;

/** GET /achievements/{id}/awards query: pagination, `since` on the award's created_at. */
export const AwardListQuerySchema = PaginationQuerySchema;
