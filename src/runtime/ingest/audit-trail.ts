import { AuditRecordSchema, type AuditRecord, type AuditWriter } from '../../bots/audit-log';
import type { KvSpace } from '../../store/kv';
import { BoundedHistory } from './bounded-history';

/** The store's key-value space the audit log lives in. */
export const AUDIT_TRAIL_SPACE = 'runtime:audit';
/** How long a bot's audit records stay after its last one. */
export const AUDIT_TRAIL_TTL_MS = 30 * 24 * 60 * 60_000;
/** How many records are kept per tenant and bot. */
export const AUDIT_TRAIL_PER_BOT = 500;

/**
 * What bots using the `auditLog` middleware did, in the store (every replica's): the last 500 runs per
 * tenant and bot, for 30 days after the last. Read by `GET /_admin/deliveries?state=audit`, `intrabot
 * deliveries --audit` and the console.
 */
export class AuditTrail implements AuditWriter {
  private readonly history: BoundedHistory<AuditRecord>;

  constructor(kv: KvSpace) {
    this.history = new BoundedHistory(kv, AuditRecordSchema, { perKey: AUDIT_TRAIL_PER_BOT, ttlMs: AUDIT_TRAIL_TTL_MS });
  }

  async record(entry: AuditRecord): Promise<void> {
    await this.history.append(JSON.stringify([entry.tenant, entry.bot]), entry);
  }

  /** The newest first, at most `limit`, across tenants and bots. */
  recent(limit: number): Promise<AuditRecord[]> {
    return this.history.recent(limit);
  }
}
