import { z } from 'zod';

/** Stored shapes of the achievements module. Times are epoch ms; award days `YYYY-MM-DD`. */
export const ACHIEVEMENT_KIND = {
  achievements: 'achievements',
  awards: 'awards',
  /** Who completed which handbook, course or journey (the control route records them). */
  completions: 'completions',
} as const;

export const TriggerConfigRecordSchema = z.union([
  z.object({ completable_type: z.enum(['handbook', 'course', 'journey']), completable_ids: z.array(z.number().int()) }),
  z.object({ months: z.number().int() }),
]);
export type TriggerConfigRecord = z.infer<typeof TriggerConfigRecordSchema>;

export const AchievementRecordSchema = z.object({
  id: z.number().int(),
  type: z.enum(['employee_of_the_month', 'completion', 'employment', 'custom']),
  /** Title per locale; the default content language's entry is `title`. */
  titles: z.record(z.string(), z.string()),
  descriptions: z.record(z.string(), z.string().nullable()),
  emoji: z.string(),
  visibility: z.enum(['public', 'personal']),
  trigger_config: TriggerConfigRecordSchema.nullable(),
  is_published: z.boolean(),
  published_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AchievementRecord = z.infer<typeof AchievementRecordSchema>;

export const AwardRecordSchema = z.object({
  id: z.number().int(),
  achievement_id: z.number().int(),
  user_id: z.number().int(),
  /** The awarded day, read in the customer server's zone. */
  awarded_on: z.string(),
  department_id: z.number().int().nullable(),
  is_manually_added: z.boolean(),
  /** Null for awards earned through a trigger. */
  assigned_by_id: z.number().int().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AwardRecord = z.infer<typeof AwardRecordSchema>;

export const CompletionRecordSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  completable_type: z.enum(['handbook', 'course', 'journey']),
  completable_id: z.number().int(),
  completed_at: z.number(),
  created_at: z.number(),
});
export type CompletionRecord = z.infer<typeof CompletionRecordSchema>;
