import { z } from 'zod';
import { endpointById } from '../../api/schemas/endpoints';
import { InvalidInputError } from '../../errors';
import { JsonValueSchema } from '../../store/json';
import { parseOrThrow } from '../../validation';
import { callOnce } from '../send-client';
import { TenantSchema } from './entry-fields';
import type { SendKind } from './send-kind';

/** Any other write, by endpoint id (`walls.*` are reads; `posts.update`, `chatMessages.pin`...). */
export const ApiEntrySchema = z.strictObject({
  kind: z.literal('api'),
  tenant: TenantSchema,
  endpointId: z.string().min(1),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  query: z.record(z.string(), JsonValueSchema).optional(),
  body: JsonValueSchema.optional(),
});
export type ApiEntry = z.infer<typeof ApiEntrySchema>;

export const apiKind: SendKind<typeof ApiEntrySchema> = {
  schema: ApiEntrySchema,
  sample: { kind: 'api', tenant: 'sandbox', endpointId: 'posts.update', params: { wall_id: 3, id: 41 }, body: { body: 'Release 4.2.1 is out' } },
  orderKey: (entry) => `${entry.tenant}:api:${entry.endpointId}`,
  checkBody(entry) {
    const endpoint = endpointById(entry.endpointId);
    if (!endpoint || endpoint.method === 'GET') {
      throw new InvalidInputError('entry.endpointId', `entry.endpointId: ${entry.endpointId} is not a write endpoint of the catalog`);
    }
    if (endpoint.body && entry.body !== undefined) parseOrThrow(endpoint.body, entry.body, 'entry.body');
  },
  async send(entry, ctx) {
    const endpoint = endpointById(entry.endpointId);
    if (!endpoint) throw new InvalidInputError('entry.endpointId', `entry.endpointId: ${entry.endpointId} is not in the catalog`);
    await callOnce(ctx.client, endpoint, {
      signal: ctx.signal,
      ...(entry.params ? { params: entry.params } : {}),
      ...(entry.query ? { query: entry.query } : {}),
      body: entry.body,
    });
    return {};
  },
  summary: (entry) => ({ text: entry.endpointId }),
  destination: (entry) => entry.endpointId,
};
