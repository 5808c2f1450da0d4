import { z } from 'zod';

/** What the store keeps as data: anything JSON can carry (queue payloads, kv values, envelopes). */
export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;
