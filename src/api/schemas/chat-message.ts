import { z } from 'zod';
import { IdSchema } from './common';

/** POST /chat-messages/{id}/pin answer. spec: not shown — `{ id, is_pinned }`. */
export const ChatMessagePinSchema = z.looseObject({ id: IdSchema, is_pinned: z.boolean() });
export type ChatMessagePin = z.infer<typeof ChatMessagePinSchema>;
