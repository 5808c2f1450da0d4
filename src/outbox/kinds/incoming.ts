import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { INCOMING_PAYLOAD_SCHEMAS, IncomingWebhookActionSchema } from '../../api/schemas/incoming-webhook';
import { JsonValueSchema } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { incomingToken } from '../incoming-token';
import { callOnce } from '../send-client';
import { TenantSchema } from './entry-fields';
import type { SendKind } from './send-kind';
import { withMedia, type SentMedia } from './sent-media';

export const IncomingEntrySchema = z.strictObject({
  kind: z.literal('incoming'),
  tenant: TenantSchema,
  /** `urlSecretRef` names the `store.secrets` entry holding the webhook URL (the URL carries its token). */
  webhook: z.strictObject({ id: z.string().min(1), urlSecretRef: z.string().min(1) }),
  action: IncomingWebhookActionSchema,
  /** The trigger body for the action (spec: Incoming webhooks): `{ text, media? }` or a calendar entry. */
  payload: z.record(z.string(), JsonValueSchema),
});
export type IncomingEntry = z.infer<typeof IncomingEntrySchema>;

/** What an incoming webhook sent, as `testBot` records it: by the manifest target it sends through. */
export type SentIncoming =
  | { kind: 'post'; target: string; text: string; media?: SentMedia[] }
  | { kind: 'dm'; target: string; text: string; media?: SentMedia[] }
  | { kind: 'chat'; target: string; text: string; media?: SentMedia[] };

export const incomingKind: SendKind<typeof IncomingEntrySchema, never, SentIncoming> = {
  schema: IncomingEntrySchema,
  sample: {
    kind: 'incoming',
    tenant: 'sandbox',
    webhook: { id: 'alerts/oncall', urlSecretRef: 'incoming:sandbox:alerts:oncall' },
    action: 'chat_message',
    payload: { text: 'disk full on db-1' },
  },
  orderKey: (entry) => `${entry.tenant}:incoming:${entry.webhook.id}`,
  checkBody: (entry) => void parseOrThrow(INCOMING_PAYLOAD_SCHEMAS[entry.action], entry.payload, 'entry.payload'),
  async send(entry, ctx) {
    const token = await incomingToken(ctx.secrets, entry.webhook.urlSecretRef);
    await callOnce(ctx.client, endpoints['incomingWebhooks.send'], { signal: ctx.signal, params: { token }, body: entry.payload });
    const text = entry.payload.text;
    return entry.action === 'wall_post' && typeof text === 'string' ? { sentText: text } : {};
  },
  mergeable: {
    text: (entry) => (entry.action !== 'calendar_entry' && !entry.payload.media && typeof entry.payload.text === 'string' ? entry.payload.text : undefined),
    withText: (entry, text) => ({ ...entry, payload: { ...entry.payload, text } }),
    sameChannel: (a, b) => a.webhook.id === b.webhook.id && a.action === b.action,
  },
  summary: (entry) => ({ text: typeof entry.payload.text === 'string' ? entry.payload.text : String(entry.payload.title ?? entry.action) }),
  destination: (entry) => `webhook ${entry.webhook.id}`,
  record(entry): SentIncoming {
    // the webhook is named `<bot>/<target>`: the target is what the test knows it by
    const target = entry.webhook.id.slice(entry.webhook.id.indexOf('/') + 1);
    const payload = entry.payload as { text?: string; media?: SentMedia[] };
    const text = String(payload.text ?? '');
    if (entry.action === 'chat_message') return withMedia({ kind: 'chat', target, text }, payload.media);
    if (entry.action === 'direct_message') return withMedia({ kind: 'dm', target, text }, payload.media);
    return withMedia({ kind: 'post', target, text }, payload.media);
  },
};
