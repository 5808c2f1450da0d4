import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import type { JsonValue } from '../json';
import {
  AcceptInputSchema,
  type AcceptInput,
  type AcceptResult,
  type InboxItem,
} from '../inbox';
import { newEntryId } from '../queue';
import { dedupeKeys } from '../dedupe-keys';
import type { SqliteQueue } from './sqlite-queue';
import { WriteBatcher } from './write-batcher';
import { QueueBackedInbox } from '../queue-backed-inbox';

export interface SqliteInboxOptions {
  dedupeTtlMs: number;
  batchWindowMs: number;
  maxBatch: number;
  onBatchCommit?: (size: number) => void;
}

type Parsed = ReturnType<typeof AcceptInputSchema.parse>;

/**
 * The SQLite inbox: accepts go through a write-behind batcher, so all deliveries read in one event-loop
 * turn share one transaction; each caller's promise resolves once that transaction has committed.
 */
export class SqliteInbox extends QueueBackedInbox<SqliteQueue> {
  private readonly batcher: WriteBatcher<Parsed, AcceptResult>;
  private readonly seen: Statement;
  private readonly remember: Statement;

  constructor(
    db: Database,
    queue: SqliteQueue,
    private readonly clock: Clock,
    private readonly options: SqliteInboxOptions,
  ) {
    super(queue);
    this.seen = db.prepare('SELECT 1 FROM dedupe WHERE key = ? AND expires_at > ?');
    this.remember = db.prepare('INSERT INTO dedupe (key, expires_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at');
    const commitBatch = db.transaction((items: Parsed[]) => items.map((item) => this.acceptOne(item)));
    this.batcher = new WriteBatcher({
      commit: (items) => commitBatch.immediate(items),
      windowMs: options.batchWindowMs,
      maxBatch: options.maxBatch,
      ...(options.onBatchCommit ? { onCommit: options.onBatchCommit } : {}),
    });
  }

  async accept(raw: AcceptInput): Promise<AcceptResult> {
    // validated before batching, so one bad delivery cannot fail its batch-mates
    const input = parseOrThrow(AcceptInputSchema, raw, 'delivery');
    return this.batcher.submit(input);
  }

  /** Commits waiting accepts now (at close). */
  flush(): void {
    this.batcher.flush();
  }

  private acceptOne(input: Parsed): AcceptResult {
    const now = this.clock.now();
    const keys = dedupeKeys(input);
    if (this.seen.get(keys.delivery, now)) return { accepted: false, duplicateOf: 'delivery' };
    if (keys.dedupe && this.seen.get(keys.dedupe, now)) return { accepted: false, duplicateOf: 'dedupe_key' };
    const expiresAt = now + this.options.dedupeTtlMs;
    this.remember.run(keys.delivery, expiresAt);
    if (keys.dedupe) this.remember.run(keys.dedupe, expiresAt);
    const id = newEntryId(now);
    const item: InboxItem = { tenant: input.tenant, bot: input.bot, deliveryId: input.deliveryId, dedupeKey: input.dedupeKey ?? null, event: input.event ?? null, envelope: input.envelope as JsonValue };
    // each inbox entry is its own target: entries are independent, a slow one holds up nothing
    this.queue.insertNow({ id, target: id, payload: item, notBefore: now, alone: true });
    return { accepted: true, id };
  }
}
