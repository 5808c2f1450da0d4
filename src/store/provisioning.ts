import { z } from 'zod';
import { parseOrThrow } from '../validation';
import type { Clock } from '../clock';
import type { KvSpace } from './kv';

export const ProvisionedKindSchema = z.enum(['bot_user', 'webhook_endpoint', 'incoming_webhook']);
export type ProvisionedKind = z.infer<typeof ProvisionedKindSchema>;

/**
 * What the provisioner created on a tenant, so the next start updates rather than creates. Secrets that
 * come with a record (a webhook's signing secret, an incoming webhook's URL) go to `store.secrets`,
 * never into `data`.
 */
export const ProvisionedRecordSchema = z.object({
  kind: ProvisionedKindSchema,
  /** Our name for it: the bot's name, or `<bot>/<input>` for a bot's incoming webhook. */
  name: z.string().min(1),
  /** The platform's id of the resource. */
  remoteId: z.union([z.number().int(), z.string().min(1)]),
  /** A hash of the desired configuration last applied, to tell whether an update is needed. */
  fingerprint: z.string().optional(),
  data: z.record(z.string(), z.json()).default({}),
  updatedAt: z.number().int().optional(),
});
export type ProvisionedRecord = z.output<typeof ProvisionedRecordSchema>;
export type ProvisionedRecordInput = z.input<typeof ProvisionedRecordSchema>;

/** @example await store.provisioning.put('default', { kind: 'bot_user', name: 'kudos', remoteId: 42 }); */
export interface ProvisioningState {
  put(tenant: string, record: ProvisionedRecordInput): Promise<ProvisionedRecord>;
  get(tenant: string, kind: ProvisionedKind, name: string): Promise<ProvisionedRecord | undefined>;
  list(tenant: string, kind?: ProvisionedKind): Promise<ProvisionedRecord[]>;
  delete(tenant: string, kind: ProvisionedKind, name: string): Promise<boolean>;
}

const TenantSchema = z.string().min(1);

/** Provisioning state kept as typed records in one kv namespace per tenant; shared by both stores. */
export function createProvisioningState(kv: (namespace: string) => KvSpace, clock: Clock): ProvisioningState {
  const space = (tenant: string): KvSpace => kv(`provisioning:${parseOrThrow(TenantSchema, tenant, 'tenant')}`);
  return {
    async put(tenant, input) {
      const record = parseOrThrow(ProvisionedRecordSchema, { ...input, updatedAt: clock.now() }, 'record');
      await space(tenant).set(`${record.kind}:${record.name}`, record);
      return record;
    },
    async get(tenant, kind, name) {
      const value = await space(tenant).get(`${kind}:${name}`);
      return value === undefined ? undefined : ProvisionedRecordSchema.parse(value);
    },
    async list(tenant, kind) {
      const items = await space(tenant).list(kind ? `${kind}:` : '');
      return items.map((item) => ProvisionedRecordSchema.parse(item.value));
    },
    delete: (tenant, kind, name) => space(tenant).delete(`${kind}:${name}`),
  };
}
