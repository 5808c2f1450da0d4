import { z } from 'zod';
import { DateTimeSchema, IdInputSchema, IdSchema } from './common';
import { PaginationQuerySchema, QueryBooleanSchema } from './query';

/** spec: Limits — emoji length, counted in code points (what a user sees as characters). */
export const MAX_EMOJI_LENGTH = 16;

export const AchievementTypeSchema = z.enum(['employee_of_the_month', 'completion', 'employment', 'custom'], {
  error: 'type must be one of employee_of_the_month, completion, employment, custom',
});
export type AchievementType = z.infer<typeof AchievementTypeSchema>;

export const AchievementVisibilitySchema = z.enum(['public', 'personal'], { error: 'visibility must be public or personal' });
export type AchievementVisibility = z.infer<typeof AchievementVisibilitySchema>;

/** `{ title: {locale: text}, description: {locale: text} }` (spec: Achievement). */
export const AchievementTranslationsSchema = z.looseObject({
  title: z.record(z.string(), z.string()).optional(),
  description: z.record(z.string(), z.string().nullable()).optional(),
});

/** spec: Achievement — trigger_config as returned: completion or tenure config, or null. */
export const AchievementSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  description: z.string().nullable(),
  translations: AchievementTranslationsSchema,
  emoji: z.string(),
  type: AchievementTypeSchema,
  visibility: AchievementVisibilitySchema,
  trigger_type: z.enum(['completion', 'tenure']).nullable(),
  trigger_config: z.looseObject({}).nullable(),
  awarded_users_count: z.int(),
  is_published: z.boolean(),
  published_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Achievement = z.infer<typeof AchievementSchema>;

/** The abbreviated achievement embedded on awards (spec: Award — "id, title, emoji, type, ... and more"). */
export const AchievementSummarySchema = AchievementSchema.partial().extend({
  id: IdSchema,
  title: z.string(),
  emoji: z.string(),
  type: AchievementTypeSchema,
  visibility: AchievementVisibilitySchema,
});
export type AchievementSummary = z.infer<typeof AchievementSummarySchema>;

/** spec: Trigger configuration — completion. */
export const CompletionTriggerConfigSchema = z.strictObject({
  completable_type: z.enum(['handbook', 'course', 'journey'], { error: 'completable_type must be one of handbook, course, journey' }),
  completable_ids: z.array(IdInputSchema).min(1, { error: 'completable_ids must list at least one id' }),
});
/** spec: Trigger configuration — employment; response `trigger_type` is `tenure`. */
export const EmploymentTriggerConfigSchema = z.strictObject({
  months: z.int({ error: 'months must be an integer' }).min(1, { error: 'months must be at least 1' }),
});
export type CompletionTriggerConfig = z.infer<typeof CompletionTriggerConfigSchema>;
export type EmploymentTriggerConfig = z.infer<typeof EmploymentTriggerConfigSchema>;

/**
 * trigger_config in a request. Parsed as any object so that checkTriggerConfig can pick the shape by
 * `type` and name the failing inner field (a union would only say "invalid input"); typed as the two
 * shapes it must have.
 */
const TriggerConfigInputSchema = z
  .record(z.string(), z.unknown(), { error: 'trigger_config must be an object' })
  .meta({ description: 'completion: { completable_type, completable_ids }; employment: { months >= 1 }' }) as unknown as z.ZodType<
  CompletionTriggerConfig | EmploymentTriggerConfig
>;

const TRIGGER_CONFIG_BY_TYPE: Partial<Record<AchievementType, z.ZodType>> = {
  completion: CompletionTriggerConfigSchema,
  employment: EmploymentTriggerConfigSchema,
};

const emojiSchema = z
  .string({ error: 'emoji must be a string' })
  .min(1, { error: 'emoji must not be empty' })
  .refine((value) => [...value].length <= MAX_EMOJI_LENGTH, { error: `emoji must be at most ${MAX_EMOJI_LENGTH} characters` });

const achievementFields = {
  type: AchievementTypeSchema,
  title: z.string({ error: 'title must be a string' }).trim().min(1, { error: 'title must not be empty' }).optional(),
  description: z.string({ error: 'description must be a string' }).nullable().optional(),
  emoji: emojiSchema.optional(),
  visibility: AchievementVisibilitySchema.optional(),
  trigger_config: TriggerConfigInputSchema.nullable().optional(),
  translations: AchievementTranslationsSchema.optional(),
  is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
};

interface TriggerFields {
  type?: AchievementType | undefined;
  trigger_config?: CompletionTriggerConfig | EmploymentTriggerConfig | null | undefined;
}

/** spec: Achievements (Create body, Trigger configuration): config only for completion and employment, and complete. */
function checkTriggerConfig(value: TriggerFields, ctx: z.RefinementCtx): void {
  if (value.trigger_config == null) return;
  const schemas = value.type ? [TRIGGER_CONFIG_BY_TYPE[value.type]] : Object.values(TRIGGER_CONFIG_BY_TYPE);
  const known = schemas.filter((s): s is z.ZodType => s !== undefined);
  if (known.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['trigger_config'],
      message: `trigger_config is only allowed for completion and employment achievements, not ${value.type}`,
    });
    return;
  }
  const results = known.map((schema) => schema.safeParse(value.trigger_config));
  if (results.some((r) => r.success)) return;
  const issue = results[0]?.error?.issues[0];
  ctx.addIssue({
    code: 'custom',
    path: ['trigger_config', ...(issue?.path ?? [])],
    message: `trigger_config is incomplete or invalid: ${issue?.message ?? 'unknown shape'}`,
  });
}

/** POST /achievements body (spec: Achievements, Create body). */
export const AchievementCreateSchema = z.strictObject(achievementFields).superRefine((value, ctx) => {
  if (value.title === undefined && value.type !== 'employee_of_the_month') {
    ctx.addIssue({ code: 'custom', path: ['title'], message: 'title is required (except for employee_of_the_month)' });
  }
  checkTriggerConfig(value, ctx);
});
export type AchievementCreate = z.input<typeof AchievementCreateSchema>;

/**
 * PATCH or PUT /achievements/{id} body: all optional. Without `type`, a trigger_config must fit one
 * of the two automatic types; whether it fits the stored type is the platform's check.
 */
export const AchievementUpdateSchema = z.strictObject({ ...achievementFields, type: AchievementTypeSchema.optional() }).superRefine(checkTriggerConfig);
export type AchievementUpdate = z.input<typeof AchievementUpdateSchema>;

/** GET /achievements query (spec: Achievements). */
export const AchievementListQuerySchema = PaginationQuerySchema.extend({
  is_published: QueryBooleanSchema.optional(),
  type: AchievementTypeSchema.optional(),
  visibility: AchievementVisibilitySchema.optional(),
});
export type AchievementListQuery = z.input<typeof AchievementListQuerySchema>;
