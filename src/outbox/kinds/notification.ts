import { z } from 'zod';
import { endpoints } from '../../api/schemas/endpoints';
import { NotificationCreateSchema } from '../../api/schemas/notification';
import { JsonValueSchema, type JsonValue } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { callOnce } from '../send-client';
import { TenantSchema } from './entry-fields';
import { titledSummary, type SendKind } from './send-kind';

export const NotificationEntrySchema = z.strictObject({
  kind: z.literal('notification'),
  tenant: TenantSchema,
  notification: z.record(z.string(), JsonValueSchema),
});
export type NotificationEntry = z.infer<typeof NotificationEntrySchema>;

/** A notification as `testBot` records it: the body as sent. */
export type SentNotification = { kind: 'notification'; notification: Record<string, unknown> };

export const notificationKind: SendKind<typeof NotificationEntrySchema, never, SentNotification> = {
  schema: NotificationEntrySchema,
  sample: { kind: 'notification', tenant: 'sandbox', notification: { title: 'Maintenance tonight', body: 'The intranet is down from 22:00', groups: [1] } },
  orderKey: (entry) => `${entry.tenant}:notifications`,
  checkBody: (entry) => void parseOrThrow(NotificationCreateSchema, entry.notification, 'entry.notification'),
  async send(entry, ctx) {
    await callOnce(ctx.client, endpoints['notifications.send'], { signal: ctx.signal, body: entry.notification });
    return {};
  },
  summary: (entry) => titledSummary(entry.notification, ['text', 'body', 'message']),
  destination: () => 'notification',
  record: (entry): SentNotification => ({ kind: 'notification', notification: entry.notification }),
  contextMethod: { name: 'notify', entry: (tenant, notification: Record<string, JsonValue>) => ({ kind: 'notification', tenant, notification }) },
};
