import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common';
import { PaginationQuerySchema } from './query';

/** spec: Group — `department`, `profession` or `custom`. */
export const GroupTypeSchema = z.enum(['department', 'profession', 'custom'], {
  error: 'type must be one of department, profession, custom',
});
export type GroupType = z.infer<typeof GroupTypeSchema>;

/** A manager as listed on the /groups endpoints. */
export const GroupManagerSchema = z.looseObject({ id: IdSchema, name: z.string() });
export type GroupManager = z.infer<typeof GroupManagerSchema>;

/** A group as embedded in other payloads (walls, announcements...): no `managers`. */
export const EmbeddedGroupSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  type: GroupTypeSchema,
  created_at: DateTimeSchema.optional(),
});
export type EmbeddedGroup = z.infer<typeof EmbeddedGroupSchema>;

/** A group in a user's `groups[]`: carries `is_manager` per membership (spec: Group). */
export const MembershipGroupSchema = EmbeddedGroupSchema.extend({ is_manager: z.boolean() });
export type MembershipGroup = z.infer<typeof MembershipGroupSchema>;

/** A group as returned by /groups: with `managers` (spec: Group). */
export const GroupSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  type: GroupTypeSchema,
  created_at: DateTimeSchema,
  managers: z.array(GroupManagerSchema),
});
export type Group = z.infer<typeof GroupSchema>;

/** GET /groups query: pagination plus `type` (spec: Groups). */
export const GroupListQuerySchema = PaginationQuerySchema.extend({ type: GroupTypeSchema.optional() });
export type GroupListQuery = z.input<typeof GroupListQuerySchema>;

/**
 * POST /groups body. spec: not shown (Other endpoints that exist names only that `type` defaults
 * to `department` and that `is_open` is valid only on `custom`).
 */
export const GroupCreateSchema = z
  .strictObject({
    name: z.string({ error: 'name is required' }).trim().min(1, { error: 'name must not be empty' }),
    type: GroupTypeSchema.default('department'),
    is_open: z.boolean({ error: 'is_open must be a boolean' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.is_open !== undefined && value.type !== 'custom') {
      ctx.addIssue({ code: 'custom', path: ['is_open'], message: 'is_open is only valid on custom groups' });
    }
  });
export type GroupCreate = z.input<typeof GroupCreateSchema>;
