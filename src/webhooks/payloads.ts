import { z } from 'zod';
import type { EventName } from './events';
import { CommentFieldsSchema, DatetimeSchema, EmbeddedAchievementSchema, EmbeddedAnnouncementSchema, EmbeddedUserSchema } from './payload-parts';

/** spec: Events, service.post.created: `{ id, body, wall_id, wall_name, author { id, name, email }, created_at, updated_at }`. */
export const PostCreatedPayloadSchema = z.looseObject({
  id: z.int(),
  body: z.string(),
  wall_id: z.int(),
  wall_name: z.string(),
  author: z.looseObject({ id: z.int(), name: z.string(), email: z.string() }),
  created_at: DatetimeSchema,
  updated_at: DatetimeSchema,
});

/** spec: Events, comment events; "payloads ... beyond what is listed: not shown": the Comment fields. */
export const CommentPayloadSchema = CommentFieldsSchema;

/** A deleted comment may arrive reduced (spec: not shown): only its id is relied on. */
export const CommentDeletedPayloadSchema = CommentFieldsSchema.partial().required({ id: true });

/** spec: Events, announcement.published (payload not shown): the Announcement. */
export const AnnouncementPublishedPayloadSchema = EmbeddedAnnouncementSchema;

/**
 * spec: Events, announcement.confirmed: "the confirmation with employee and announcement embedded";
 * the confirmation `id` is a stable idempotency key (once per employee per announcement).
 */
export const AnnouncementConfirmedPayloadSchema = z.looseObject({
  id: z.int(),
  employee: EmbeddedUserSchema,
  announcement: EmbeddedAnnouncementSchema,
  confirmed_at: DatetimeSchema.optional(), // spec: not shown
  created_at: DatetimeSchema.optional(),
});

/** Form-response fields are not shown; `form_id` is our reading of what a form filter keys on. */
const FormResponseFieldsSchema = z.looseObject({
  id: z.int(),
  form_id: z.int().optional(), // spec: not shown
  status: z.string().optional(),
  created_at: DatetimeSchema.optional(),
  updated_at: DatetimeSchema.optional(),
});

export const FormResponseCreatedPayloadSchema = FormResponseFieldsSchema;

/** spec: Events, formresponse.updated: deleted, restored or permanently deleted shows in `deleted_at`. */
export const FormResponseUpdatedPayloadSchema = FormResponseFieldsSchema.extend({
  deleted_at: DatetimeSchema.nullable().optional(),
});

/** spec: Events, formresponse.comment.*: `author` is null for a respondent on an anonymous form. */
export const FormResponseCommentPayloadSchema = z.looseObject({
  id: z.int(),
  body: z.string().optional(),
  form_response_id: z.int().optional(), // spec: not shown
  author: EmbeddedUserSchema.nullable().optional(),
  created_at: DatetimeSchema.optional(),
});

/** spec: Events, formresponse.alarm_triggered: "Named as an event"; nothing about it is shown. */
export const FormResponseAlarmPayloadSchema = z.looseObject({});

/** spec: Events, user.registered: a User (not shown beyond that). */
export const UserRegisteredPayloadSchema = EmbeddedUserSchema;

/** spec: Events, onboarding.completed: "payload carries `onboarding_completed_at`". */
export const OnboardingCompletedPayloadSchema = z.looseObject({
  onboarding_completed_at: DatetimeSchema,
  id: z.int().optional(),
  user: EmbeddedUserSchema.optional(),
});

/** spec: Events, achievement.awarded: the Award with `achievement` and `user` embedded. */
export const AchievementAwardedPayloadSchema = z.looseObject({
  id: z.int(),
  awarded_at: DatetimeSchema,
  is_manually_added: z.boolean().optional(),
  department: z.looseObject({ id: z.int(), name: z.string(), type: z.string().optional() }).nullable().optional(),
  assigned_by: EmbeddedUserSchema.nullable().optional(),
  user: EmbeddedUserSchema,
  achievement: EmbeddedAchievementSchema,
  created_at: DatetimeSchema.optional(),
  updated_at: DatetimeSchema.optional(),
});

/** spec: Events, service.test: sent by the ping endpoint; its payload is not shown. */
export const TestPayloadSchema = z.looseObject({});

/** The payload schema of every event, keyed by the short event name. */
export const PAYLOAD_SCHEMAS = {
  'post.created': PostCreatedPayloadSchema,
  'comment.created': CommentPayloadSchema,
  'comment.updated': CommentPayloadSchema,
  'comment.deleted': CommentDeletedPayloadSchema,
  'announcement.published': AnnouncementPublishedPayloadSchema,
  'announcement.confirmed': AnnouncementConfirmedPayloadSchema,
  'formresponse.created': FormResponseCreatedPayloadSchema,
  'formresponse.updated': FormResponseUpdatedPayloadSchema,
  'formresponse.comment.created': FormResponseCommentPayloadSchema,
  'formresponse.comment.deleted': FormResponseCommentPayloadSchema,
  'formresponse.alarm_triggered': FormResponseAlarmPayloadSchema,
  'user.registered': UserRegisteredPayloadSchema,
  'onboarding.completed': OnboardingCompletedPayloadSchema,
  'achievement.awarded': AchievementAwardedPayloadSchema,
  test: TestPayloadSchema,
} as const satisfies Record<EventName, z.ZodType>;

/**
 * The payload type of an event.
 *
 * @example
 * function wallOf(payload: PayloadOf<'post.created'>): number { return payload.wall_id; }
 */
export type PayloadOf<E extends EventName> = z.infer<(typeof PAYLOAD_SCHEMAS)[E]>;

export type PostCreatedPayload = PayloadOf<'post.created'>;
export type CommentPayload = PayloadOf<'comment.created'>;
export type AchievementAwardedPayload = PayloadOf<'achievement.awarded'>;
export type AnnouncementConfirmedPayload = PayloadOf<'announcement.confirmed'>;

/** Parses an event's payload with its schema; a failure is a zod result, never a throw. */
export function safeParsePayload<E extends EventName>(name: E, payload: unknown): z.ZodSafeParseResult<PayloadOf<E>> {
  const schema: z.ZodType = PAYLOAD_SCHEMAS[name];
  return schema.safeParse(payload) as z.ZodSafeParseResult<PayloadOf<E>>;
}
