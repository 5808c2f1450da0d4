import { z } from 'zod';
import { QueryIdListSchema, queryInt } from './query';

// spec: Statistics — every response is cached server side (1 h; engagement 24 h).

/** GET /stats/users `data`. */
export const UsersSummarySchema = z.looseObject({
  total: z.int(),
  registered: z.int(),
  active_yesterday: z.int(),
  active_7d: z.int(),
  active_30d: z.int(),
  new_yesterday: z.int(),
  new_7d: z.int(),
  new_30d: z.int(),
});
export type UsersSummary = z.infer<typeof UsersSummarySchema>;

/**
 * One period of GET /stats/engagement. The period key follows the granularity (`week` is shown
 * for weekly; `day` and `month` are assumed for the others).
 */
export const EngagementPeriodSchema = z.looseObject({
  year: z.int(),
  day: z.int().optional(),
  week: z.int().optional(),
  month: z.int().optional(),
  total_users: z.int(),
  app_users: z.int(),
  active_users: z.int(),
  app_time: z.int(),
  sessions: z.int(),
});
export type EngagementPeriod = z.infer<typeof EngagementPeriodSchema>;

export const EngagementQuerySchema = z.object({
  granularity: z.enum(['day', 'week', 'month'], { error: 'granularity must be one of day, week, month' }).optional(),
  scope: queryInt(1).optional(),
  group_ids: QueryIdListSchema.optional(),
});
export type EngagementQuery = z.input<typeof EngagementQuerySchema>;

/** GET /stats/adoption `data`. */
export const AdoptionSchema = z.looseObject({
  adoption_rate: z.looseObject({
    average: z.number(),
    departments: z.array(
      z.looseObject({
        id: z.int(),
        name: z.string(),
        active: z.int(),
        not_active: z.int(),
        total_employees: z.int(),
        average: z.number(),
      }),
    ),
  }),
});
export type Adoption = z.infer<typeof AdoptionSchema>;

export const AdoptionQuerySchema = z.object({ group_ids: QueryIdListSchema.optional() });
export type AdoptionQuery = z.input<typeof AdoptionQuerySchema>;

const ActivityCountSchema = z.looseObject({ this_week: z.int(), last_week: z.int(), total: z.int() });

/** GET /stats/content `data`. */
export const ContentActivitySchema = z.looseObject({
  posts: ActivityCountSchema,
  comments: ActivityCountSchema,
  reactions: ActivityCountSchema,
  chat_messages: ActivityCountSchema,
  todo_tasks_completed: ActivityCountSchema,
});
export type ContentActivity = z.infer<typeof ContentActivitySchema>;
