import { z } from 'zod';
import { JsonValueSchema } from './json';

/**
 * The format of `intrabot store export` / `import`: JSON lines, a header, then one record per line. The
 * records are what every backend holds, in words no engine owns, so any backend's dump can be restored by
 * any other. Bump `STORE_EXPORT_VERSION` on any change a reader of the previous version would misread.
 */
export const STORE_EXPORT_VERSION = 1;

/** The first line: what wrote the file, from which backend at which schema version, and when (ms since epoch, the store's clock). */
export const StoreExportHeaderSchema = z.strictObject({
  type: z.literal('intrabot-store'),
  version: z.literal(STORE_EXPORT_VERSION),
  from: z.string().min(1),
  schema: z.number().int().nonnegative(),
  exported_at: z.number().int().nonnegative(),
});
export type StoreExportHeader = z.infer<typeof StoreExportHeaderSchema>;

/** A remaining lifetime at export (ms); restored as a TTL from the import, so it runs on from there. */
const TtlSchema = z.number().int().positive();
const TimeSchema = z.number().finite().nonnegative();
/** A stored payload's text, as stored (JSON, or the unreadable text a poison entry holds: it travels as it is). */
const StoredTextSchema = z.string();

/** The fields both queues' entries carry. A leased entry is exported as `waiting` (its holder is stopped): at-least-once. */
const QueueFields = {
  state: z.enum(['waiting', 'dead']),
  payload: StoredTextSchema,
  attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  dead_reason: z.string().nullable(),
  not_before: TimeSchema,
  enqueued_at: TimeSchema,
};

/**
 * An inbox entry: the accepted delivery (tenant, bot, delivery id, dedupe key and envelope are in its
 * payload). Its id is not carried: each backend numbers its inbox its own way, and nothing refers to it.
 */
export const InboxRecordSchema = z.strictObject({ type: z.literal('inbox'), ...QueueFields });

/** An outbox entry; the records of one target come in line order, and are restored in file order. */
export const OutboxRecordSchema = z.strictObject({ type: z.literal('outbox'), id: z.string().min(1), target: z.string().min(1), ...QueueFields });

/** A remembered delivery id or dedupe key (`dedupeKeys`' form), so a retry after the move is still a duplicate. */
export const DedupeRecordSchema = z.strictObject({ type: z.literal('dedupe'), key: z.string().min(1), ttl_ms: TtlSchema });

/** A key-value item (provisioning records and paused bots are kv items too); `ttl_ms` null: kept until deleted. */
export const KvRecordSchema = z.strictObject({
  type: z.literal('kv'),
  namespace: z.string().min(1),
  key: z.string().min(1),
  value: JsonValueSchema,
  ttl_ms: TtlSchema.nullable(),
});

/**
 * A live claim with its holder: a cron slot's "done" mark must travel or the slot runs again. A lock
 * travels too (the store cannot tell one from a mark): its holder is stopped, so it is taken over once seen
 * gone (same host) or when its short TTL runs out.
 */
export const ClaimRecordSchema = z.strictObject({ type: z.literal('claim'), key: z.string().min(1), owner: z.string().min(1), ttl_ms: TtlSchema });

/** The store's salt for passphrase keys: without it a passphrase derives another key on the target. */
export const SecretSaltRecordSchema = z.strictObject({ type: z.literal('secret_salt'), salt: z.base64().min(1) });

/** A secret, sealed as stored: it never travels in the clear. */
export const SecretRecordSchema = z.strictObject({ type: z.literal('secret'), name: z.string().min(1), sealed: z.string().min(1) });

export const StoreRecordSchema = z.discriminatedUnion('type', [
  SecretSaltRecordSchema,
  SecretRecordSchema,
  KvRecordSchema,
  ClaimRecordSchema,
  DedupeRecordSchema,
  InboxRecordSchema,
  OutboxRecordSchema,
]);
export type StoreRecord = z.infer<typeof StoreRecordSchema>;
export type InboxRecord = z.infer<typeof InboxRecordSchema>;
export type OutboxRecord = z.infer<typeof OutboxRecordSchema>;

/** Records by type, in the order a dump writes them and a restore applies them. */
export function recordsOfType<T extends StoreRecord['type']>(records: readonly StoreRecord[], type: T): Extract<StoreRecord, { type: T }>[] {
  return records.filter((record): record is Extract<StoreRecord, { type: T }> => record.type === type);
}

/** The remaining lifetime of something expiring at `expiresAt`, or undefined when it is gone at `now` (it does not travel). */
export function remainingMs(expiresAt: number, now: number): number | undefined {
  const left = Math.ceil(expiresAt - now);
  return left > 0 ? left : undefined;
}
