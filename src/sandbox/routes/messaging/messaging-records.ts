import { z } from 'zod';

/** The record kinds of messaging: chat rooms, every message received, incoming webhooks, API feedback. */
export const MESSAGING_KIND = {
  chats: 'chats',
  messages: 'messages',
  incomingWebhooks: 'incoming_webhooks',
  feedback: 'feedback',
} as const;

/** A chat room. The API has no chat list; `GET /_sandbox/chats` shows the seeded ones. */
export const ChatRecordSchema = z.object({ id: z.number().int(), name: z.string(), created_at: z.number() });
export type ChatRecord = z.infer<typeof ChatRecordSchema>;

export const StoredMediaSchema = z.object({ url: z.string(), type: z.enum(['image', 'video', 'document']), mime_type: z.string(), size: z.number().int() });
export type StoredMedia = z.infer<typeof StoredMediaSchema>;

/**
 * A message the platform received, as the API cannot read it back: a chat message, a bot's direct
 * message or a notification (`GET /_sandbox/messages`).
 */
export const MessageRecordSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['chat', 'direct', 'notification']),
  chat_id: z.number().int().nullable(),
  /** The recipient of a direct message. */
  user_id: z.number().int().nullable(),
  sender_id: z.number().int().nullable(),
  title: z.string().nullable(),
  text: z.string(),
  media: z.array(StoredMediaSchema),
  /** The employees a notification reached. */
  recipient_ids: z.array(z.number().int()),
  source: z.enum(['incoming_webhook', 'api']),
  incoming_webhook_id: z.number().int().nullable(),
  is_pinned: z.boolean(),
  created_at: z.number(),
});
export type MessageRecord = z.infer<typeof MessageRecordSchema>;

/** spec: Incoming webhooks — a token-in-URL endpoint bound to one action and its target. */
export const IncomingWebhookRecordSchema = z.object({
  id: z.number().int(),
  /** spec: Incoming webhooks — "webhooks belong to the token that created them". */
  token_id: z.number().int(),
  name: z.string(),
  action: z.enum(['chat_message', 'wall_post', 'calendar_entry', 'direct_message']),
  wall_id: z.number().int().nullable(),
  chat_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  bot_user_id: z.number().int().nullable(),
  /** Who what it creates is attributed to: the bot when given, else the creating token's user. */
  author_id: z.number().int(),
  /** The secret in the URL; returned once, on create. */
  token: z.string(),
  revoked_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type IncomingWebhookRecord = z.infer<typeof IncomingWebhookRecordSchema>;
