import { z } from 'zod';
import { DateInputSchema, DateTimeSchema, IdInputSchema, IdSchema, MediaTypeSchema, TimeInputSchema, requiredText } from './common';

/** spec: Limits — media per incoming webhook payload. */
export const MAX_MEDIA_PER_INCOMING = 10;

/** spec: Incoming webhooks — the actions a token can be bound to. */
export const IncomingWebhookActionSchema = z.enum(['chat_message', 'wall_post', 'calendar_entry', 'direct_message'], {
  error: 'action must be one of chat_message, wall_post, calendar_entry, direct_message',
});
export type IncomingWebhookAction = z.infer<typeof IncomingWebhookActionSchema>;

/** One media item the platform downloads: `{ url, type }` (must be publicly reachable). */
export const IncomingMediaItemSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  type: MediaTypeSchema,
});
export type IncomingMediaItem = z.infer<typeof IncomingMediaItemSchema>;

const mediaListSchema = z
  .array(IncomingMediaItemSchema, { error: 'media must be an array of { url, type }' })
  .max(MAX_MEDIA_PER_INCOMING, { error: `media takes at most ${MAX_MEDIA_PER_INCOMING} items` });

/** `wall_post` payload: `{ text, media? }`; types may be mixed (spec: Incoming webhooks). */
export const WallPostPayloadSchema = z.strictObject({ text: requiredText('text'), media: mediaListSchema.optional() });
export type WallPostPayload = z.input<typeof WallPostPayloadSchema>;

/** `chat_message` payload: `{ text, media? }`; all media of one type (spec: Incoming webhooks). */
export const ChatMessagePayloadSchema = WallPostPayloadSchema.superRefine((value, ctx) => {
  const types = new Set((value.media ?? []).map((m) => m.type));
  if (types.size > 1) ctx.addIssue({ code: 'custom', path: ['media'], message: 'media of a chat message must all be of one type' });
});
export type ChatMessagePayload = z.input<typeof ChatMessagePayloadSchema>;

/** `direct_message` payload. spec: not shown — taken to be the chat message payload. */
export const DirectMessagePayloadSchema = ChatMessagePayloadSchema;
export type DirectMessagePayload = ChatMessagePayload;

/** `calendar_entry` payload (spec: Incoming webhooks). */
export const CalendarEntryPayloadSchema = z.strictObject({
  title: requiredText('title'),
  starts_at: DateInputSchema,
  starts_time: TimeInputSchema.optional(),
  ends_at: DateInputSchema.optional(),
  ends_time: TimeInputSchema.optional(),
  calendar_event_type_id: IdInputSchema.optional(),
});
export type CalendarEntryPayload = z.input<typeof CalendarEntryPayloadSchema>;

/** The payload schema for each action. */
export const INCOMING_PAYLOAD_SCHEMAS = {
  chat_message: ChatMessagePayloadSchema,
  wall_post: WallPostPayloadSchema,
  direct_message: DirectMessagePayloadSchema,
  calendar_entry: CalendarEntryPayloadSchema,
} as const satisfies Record<IncomingWebhookAction, z.ZodType>;

/**
 * POST /incoming/{token} body, whatever the token's action: text (with media) or a calendar entry.
 * The receiving side knows the action and checks with INCOMING_PAYLOAD_SCHEMAS.
 */
export const IncomingPayloadSchema = z.union([WallPostPayloadSchema, CalendarEntryPayloadSchema]);
export type IncomingPayload = z.input<typeof IncomingPayloadSchema>;

/** POST /incoming/{token} answer. spec: not shown — `{ data: { action, id? } }`, the id of what was created. */
export const IncomingResultSchema = z.looseObject({ action: IncomingWebhookActionSchema, id: IdSchema.nullable().optional() });
export type IncomingResult = z.infer<typeof IncomingResultSchema>;

/** spec: not shown — the incoming-webhook management record; never carries the url or token. */
export const IncomingWebhookSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  action: IncomingWebhookActionSchema,
  wall_id: IdSchema.nullable().optional(),
  chat_id: IdSchema.nullable().optional(),
  user_id: IdSchema.nullable().optional(),
  bot_user_id: IdSchema.nullable().optional(),
  is_active: z.boolean().optional(),
  revoked_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type IncomingWebhook = z.infer<typeof IncomingWebhookSchema>;

/** spec: not shown — the create answer: the record plus `url` and `token`, returned this once. */
export const IncomingWebhookCreatedSchema = IncomingWebhookSchema.extend({ url: z.string(), token: z.string() });
export type IncomingWebhookCreated = z.infer<typeof IncomingWebhookCreatedSchema>;

/** The target fields each action needs. */
const REQUIRED_TARGETS: Record<IncomingWebhookAction, readonly ('wall_id' | 'chat_id' | 'user_id' | 'bot_user_id')[]> = {
  wall_post: ['wall_id'],
  chat_message: ['chat_id'],
  // spec: Incoming webhooks — a bot user is always the sender of a direct message
  direct_message: ['user_id', 'bot_user_id'],
  calendar_entry: [],
};

const targetFields = {
  wall_id: IdInputSchema.optional(),
  chat_id: IdInputSchema.optional(),
  user_id: IdInputSchema.optional(),
  bot_user_id: IdInputSchema.optional(),
};

/** POST /incoming-webhooks body. spec: not shown (DESIGN.md): `{ name, action, <the target the action needs> }`. */
export const IncomingWebhookCreateSchema = z
  .strictObject({ name: requiredText('name'), action: IncomingWebhookActionSchema, ...targetFields })
  .superRefine((value, ctx) => {
    for (const field of REQUIRED_TARGETS[value.action]) {
      if (value[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required for action ${value.action}` });
    }
  });
export type IncomingWebhookCreate = z.input<typeof IncomingWebhookCreateSchema>;

/** PUT /incoming-webhooks/{id} body. spec: not shown — name and targets; the action is fixed. */
export const IncomingWebhookUpdateSchema = z.strictObject({ name: requiredText('name').optional(), ...targetFields });
export type IncomingWebhookUpdate = z.input<typeof IncomingWebhookUpdateSchema>;
