import { z } from 'zod';
import { DateInputSchema, DateSchema, DateTimeSchema, GroupIdsInputSchema, IdSchema } from './common';
import { MembershipGroupSchema } from './group';
import { PaginationQuerySchema, queryInt } from './query';

/** spec: User — `default` for employees; `customer` and `system` seen on embedded users. Kept open. */
export const UserTypeSchema = z.string();

/** spec: User */
export const UserSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  type: UserTypeSchema,
  avatar_url: z.string().nullable(),
  title: z.string().nullable(),
  groups: z.array(MembershipGroupSchema),
  is_manager: z.boolean(),
  // spec: a date; null tolerated, as for last_active_on and registered_at: hosts have answered null (issue #12)
  hired_at: DateSchema.nullable(),
  date_of_birth: DateSchema.nullable(),
  is_away: z.boolean(),
  last_active_on: DateSchema.nullable(),
  registered_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
});
export type User = z.infer<typeof UserSchema>;

/**
 * A user embedded as an author or holder ("User (embedded, possibly reduced)"): `id` and `name`
 * always, the rest when the platform includes it.
 */
export const EmbeddedUserSchema = UserSchema.partial().extend({ id: IdSchema, name: z.string() });
export type EmbeddedUser = z.infer<typeof EmbeddedUserSchema>;

/** The reduced author of an event: `{ id, name, email, avatar_url }` (spec: Event). */
export const ReducedUserSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
});
export type ReducedUser = z.infer<typeof ReducedUserSchema>;

/** The author of a calendar entry: `{ id, name, email }` (spec: Calendar entry). */
export const MinimalUserSchema = z.looseObject({ id: IdSchema, name: z.string(), email: z.string() });
export type MinimalUser = z.infer<typeof MinimalUserSchema>;

/** GET /users query: pagination plus `group_id` (spec: Users). */
export const UserListQuerySchema = PaginationQuerySchema.extend({ group_id: queryInt(1).optional() });
export type UserListQuery = z.input<typeof UserListQuerySchema>;

/** POST /users body. spec: not shown (DESIGN.md's choice). */
export const UserCreateSchema = z.strictObject({
  email: z.email({ error: 'email must be an email address' }),
  first_name: z.string({ error: 'first_name is required' }).trim().min(1, { error: 'first_name must not be empty' }),
  last_name: z.string({ error: 'last_name is required' }).trim().min(1, { error: 'last_name must not be empty' }),
  title: z.string().nullable().optional(),
  hired_at: DateInputSchema.optional(),
  date_of_birth: DateInputSchema.nullable().optional(),
  groups: GroupIdsInputSchema.optional(),
});
export type UserCreate = z.input<typeof UserCreateSchema>;
