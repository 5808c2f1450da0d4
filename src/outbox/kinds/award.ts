import { z } from 'zod';
import { AwardCreateSchema } from '../../api/schemas/award';
import { endpoints } from '../../api/schemas/endpoints';
import { JsonValueSchema } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { callOnce } from '../send-client';
import { IdSchema, TenantSchema } from './entry-fields';
import type { SendKind } from './send-kind';

export const AwardEntrySchema = z.strictObject({
  kind: z.literal('award'),
  tenant: TenantSchema,
  achievementId: IdSchema,
  rows: z.array(z.record(z.string(), JsonValueSchema)).min(1),
});
export type AwardEntry = z.infer<typeof AwardEntrySchema>;

export const awardKind: SendKind<typeof AwardEntrySchema> = {
  schema: AwardEntrySchema,
  sample: { kind: 'award', tenant: 'sandbox', achievementId: 7, rows: [{ user_id: 12, awarded_at: '2026-11-23' }] },
  orderKey: (entry) => `${entry.tenant}:achievement:${entry.achievementId}`,
  checkBody: (entry) => void parseOrThrow(AwardCreateSchema, { awards: entry.rows }, 'entry.rows'),
  async send(entry, ctx) {
    // spec: Award rules 3 — an identical row returns the existing award: safe to send again
    await callOnce(ctx.client, endpoints['achievements.award'], {
      signal: ctx.signal,
      params: { id: entry.achievementId },
      body: { awards: entry.rows },
      repeatable: true,
    });
    return {};
  },
  repeatable: true,
  summary: (entry) => ({ text: `${entry.rows.length} row(s) on achievement ${entry.achievementId}` }),
  destination: (entry) => `achievement ${entry.achievementId}`,
};
