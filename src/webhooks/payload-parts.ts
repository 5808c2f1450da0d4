import { z } from 'zod';

/**
 * Building blocks of event payloads. Payloads come from the platform, so every object keeps the
 * fields it does not know (`z.looseObject`), and only what a bot needs to route an event is required:
 * a new optional field never makes a delivery unreadable.
 */

/** spec: "Datetimes are ISO 8601 strings with an offset." Kept as text; parsing is the reader's choice. */
export const DatetimeSchema = z.string().min(1);
/** spec: "Dates are `YYYY-MM-DD`." */
export const DateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date');

/** A group as embedded in a user's `groups[]`, with the per-membership manager flag (spec: Group). */
export const EmbeddedGroupSchema = z.looseObject({
  id: z.int(),
  name: z.string(),
  type: z.string().optional(),
  is_manager: z.boolean().optional(),
});

/**
 * A user as embedded in payloads (spec: User). Deliveries may carry a reduced user (`{ id, name,
 * email }` on posts), so only `id` and `name` are required.
 */
export const EmbeddedUserSchema = z.looseObject({
  id: z.int(),
  name: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  email: z.string().optional(),
  type: z.string().optional(),
  avatar_url: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  groups: z.array(EmbeddedGroupSchema).optional(),
  is_manager: z.boolean().optional(),
  hired_at: DateSchema.nullable().optional(),
  date_of_birth: DateSchema.nullable().optional(),
  is_away: z.boolean().optional(),
  last_active_on: DateSchema.nullable().optional(),
  registered_at: DatetimeSchema.nullable().optional(),
  created_at: DatetimeSchema.optional(),
});

export type EmbeddedUser = z.infer<typeof EmbeddedUserSchema>;

/** spec: Achievement, `type`. */
export const AchievementTypeSchema = z.enum(['employee_of_the_month', 'completion', 'employment', 'custom']);
/** spec: Achievement, `visibility`. */
export const AchievementVisibilitySchema = z.enum(['public', 'personal']);

/** The abbreviated achievement embedded in an award (spec: Award, `achievement`). */
export const EmbeddedAchievementSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  emoji: z.string().optional(),
  type: AchievementTypeSchema,
  visibility: AchievementVisibilitySchema,
  description: z.string().nullable().optional(),
  awarded_users_count: z.int().optional(),
  is_published: z.boolean().optional(),
});

/** An announcement as embedded in events (spec: Announcement); the payload shape is not shown. */
export const EmbeddedAnnouncementSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  subtitle: z.string().nullable().optional(),
  body: z.string().optional(),
  author: EmbeddedUserSchema.optional(),
  groups: z.array(EmbeddedGroupSchema).optional(),
  is_published: z.boolean().optional(),
  is_confirmable: z.boolean().optional(),
  published_at: DatetimeSchema.nullable().optional(),
});

/** The fields of a Comment (spec: Comment). */
export const CommentFieldsSchema = z.looseObject({
  id: z.int(),
  body: z.string(),
  post_id: z.int(),
  wall_id: z.int(),
  author: EmbeddedUserSchema,
  created_at: DatetimeSchema,
  updated_at: DatetimeSchema,
});
