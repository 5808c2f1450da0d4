import { z } from 'zod';

/**
 * Stored shapes of the records several parts of the sandbox share. Times are epoch ms (the
 * serializers write them as the platform does, with the customer's offset); dates are `YYYY-MM-DD`.
 * Each route module keeps the records only it uses in its own file; these are the common ones.
 */

/** Every kind of user the spec names. Bot users are users too (`bot_user_id`, 422 on awards). */
export const UserKindSchema = z.enum(['default', 'customer', 'system', 'kiosk', 'bot', 'shadow']);
export type UserKind = z.infer<typeof UserKindSchema>;

export const MembershipSchema = z.object({ group_id: z.number().int(), is_manager: z.boolean() });

export const UserRecordSchema = z.object({
  id: z.number().int(),
  kind: UserKindSchema,
  /** spec: Users — only registered users are returned; pending invites and deactivated accounts are omitted. */
  status: z.enum(['registered', 'pending', 'deactivated']),
  first_name: z.string(),
  last_name: z.string(),
  /** Display name; for bot users and the company user this is the whole name. */
  name: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  avatar_url: z.string().nullable(),
  memberships: z.array(MembershipSchema),
  is_manager: z.boolean(),
  /** spec: User.hired_at — a manual override wins over a synced value. */
  hired_at_synced: z.string().nullable(),
  hired_at_manual: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  is_away: z.boolean(),
  last_active_on: z.string().nullable(),
  registered_at: z.number().nullable(),
  created_at: z.number(),
  /** Set for users synced from an external system (they cannot be deleted: 422). */
  external_id: z.string().nullable(),
  deleted_at: z.number().nullable(),
  onboarding_completed_at: z.number().nullable(),
});
export type UserRecord = z.infer<typeof UserRecordSchema>;

export const GroupRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['department', 'profession', 'custom', 'system']),
  is_open: z.boolean().nullable(),
  created_at: z.number(),
});
export type GroupRecord = z.infer<typeof GroupRecordSchema>;

export const WallRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  group_ids: z.array(z.number().int()),
  created_at: z.number(),
});
export type WallRecord = z.infer<typeof WallRecordSchema>;

export const TokenRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The bearer value (`svc_...`). Kept only in the sandbox's own state, never logged or returned by the API. */
  token: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.number().nullable(),
  ip: z.string().nullable(),
  /** spec: Authentication 4 — content is attributed to the token's creator or to a system user. */
  attribution: z.enum(['creator', 'system']),
  /** The token's creator (an admin user). */
  user_id: z.number().int(),
  active: z.boolean(),
  created_at: z.number(),
});
export type TokenRecord = z.infer<typeof TokenRecordSchema>;

/** The kinds (tables) of the shared records. */
export const KIND = {
  users: 'users',
  groups: 'groups',
  walls: 'walls',
  tokens: 'tokens',
} as const;

/** Every scope the spec names (spec: Authentication). The seeded token holds all of them. */
export const ALL_SCOPES = [
  'read:posts',
  'write:posts',
  'read:comments',
  'write:comments',
  'write:media',
  'read:announcements',
  'write:announcements',
  'read:events',
  'write:events',
  'read:calendar_entries',
  'write:calendar_entries',
  'read:users',
  'write:users',
  'read:groups',
  'write:groups',
  'read:walls',
  'read:stats',
  'read:bots',
  'write:bots',
  'read:webhooks',
  'write:webhooks',
  'read:incoming_webhooks',
  'write:incoming_webhooks',
  'read:achievements',
  'write:achievements',
  'write:chat_messages',
  'write:notifications',
  'read:locales',
  'read:forms',
  'read:formresponses',
  'read:journeys',
  'read:org_chart',
  'read:managerhub',
  'read:staff_cards',
  'write:staff_cards',
  'read:handbooks',
  'write:handbooks',
  'read:courses',
  'write:courses',
  'read:articles',
  'write:articles',
  'read:certificates',
  'write:certificates',
  'read:certificatetypes',
  'write:certificatetypes',
  'read:calendar_event_types',
  'write:calendar_event_types',
] as const;

export const SANDBOX_TOKEN = 'svc_sandbox_token';
