import { z } from 'zod';
import { AnnouncementCreateSchema } from '../../api/schemas/announcement';
import { endpoints } from '../../api/schemas/endpoints';
import { JsonValueSchema, type JsonValue } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { reconcileTitled } from '../find-created';
import { callOnce } from '../send-client';
import { TenantSchema } from './entry-fields';
import { titledSummary, type Created, type SendKind } from './send-kind';

export const AnnouncementEntrySchema = z.strictObject({
  kind: z.literal('announcement'),
  tenant: TenantSchema,
  announcement: z.record(z.string(), JsonValueSchema),
});
export type AnnouncementEntry = z.infer<typeof AnnouncementEntrySchema>;

/** An announcement as `testBot` records it: the body as sent. */
export type SentAnnouncement = { kind: 'announcement'; announcement: Record<string, unknown> };

export const announcementKind: SendKind<typeof AnnouncementEntrySchema, 'announcement', SentAnnouncement> = {
  schema: AnnouncementEntrySchema,
  sample: { kind: 'announcement', tenant: 'sandbox', announcement: { title: 'New office', body: 'We move on Monday' } },
  orderKey: (entry) => `${entry.tenant}:announcements`,
  checkBody: (entry) => void parseOrThrow(AnnouncementCreateSchema, entry.announcement, 'entry.announcement'),
  async send(entry, ctx) {
    const announcement = (await callOnce(ctx.client, endpoints['announcements.create'], { signal: ctx.signal, body: entry.announcement })) as Created;
    return { created: { kind: 'announcement', id: announcement.id } };
  },
  // by title, drafts included
  reconcile: (client, entry, input) => reconcileTitled(client, 'announcement', entry.announcement, input),
  createdItem: 'announcement',
  summary: (entry) => titledSummary(entry.announcement, ['body', 'text', 'content']),
  destination: () => 'announcement',
  record: (entry): SentAnnouncement => ({ kind: 'announcement', announcement: entry.announcement }),
  contextMethod: { name: 'announce', entry: (tenant, announcement: Record<string, JsonValue>) => ({ kind: 'announcement', tenant, announcement }) },
};
