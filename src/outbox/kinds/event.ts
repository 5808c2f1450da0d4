import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { EventCreateSchema } from '../../api/schemas/event';
import { JsonValueSchema, type JsonValue } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { reconcileTitled } from '../find-created';
import { callOnce } from '../send-client';
import { TenantSchema } from './entry-fields';
import { titledSummary, type Created, type SendKind } from './send-kind';

export const EventEntrySchema = z.strictObject({
  kind: z.literal('event'),
  tenant: TenantSchema,
  event: z.record(z.string(), JsonValueSchema),
});
export type EventEntry = z.infer<typeof EventEntrySchema>;

/** A calendar event as `testBot` records it: the body as sent. */
export type SentEvent = { kind: 'event'; event: Record<string, unknown> };

export const eventKind: SendKind<typeof EventEntrySchema, 'event', SentEvent> = {
  schema: EventEntrySchema,
  sample: {
    kind: 'event',
    tenant: 'sandbox',
    event: { title: 'Summer party', body: 'On the roof', starts_at: '2026-07-03' },
  },
  orderKey: (entry) => `${entry.tenant}:events`,
  checkBody: (entry) => void parseOrThrow(EventCreateSchema, entry.event, 'entry.event'),
  async send(entry, ctx) {
    const event = (await callOnce(ctx.client, endpoints['events.create'], { signal: ctx.signal, body: entry.event })) as Created;
    return { created: { kind: 'event', id: event.id } };
  },
  // by title, drafts included
  reconcile: (client, entry, input) => reconcileTitled(client, 'event', entry.event, input),
  createdItem: 'event',
  summary: (entry) => titledSummary(entry.event, ['description', 'body']),
  destination: () => 'event',
  record: (entry): SentEvent => ({ kind: 'event', event: entry.event }),
  contextMethod: { name: 'createEvent', entry: (tenant, event: Record<string, JsonValue>) => ({ kind: 'event', tenant, event }) },
};
