import type { Database } from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { AcceptRecord, BackendInbox } from '../backend';
import type { AcceptResult } from '../inbox';
import { dedupeKeys } from '../dedupe-keys';
import { DedupeLog } from './dedupe-log';
import { SqliteInboxQueue } from './sqlite-inbox-queue';
import { WriteBatcher } from '../write-batcher';

export interface SqliteInboxOptions {
  dedupeTtlMs: number;
  batchWindowMs: number;
  maxBatch: number;
  onBatchCommit?: (size: number) => void;
  /** The store's owner id, named in lease tokens (see `SqliteQueue`). */
  owner?: string;
}

/**
 * The SQLite inbox: accepts go through a write-behind batcher, so all deliveries read in one event-loop
 * turn share one transaction; each caller's promise resolves once that transaction has committed.
 * A commit appends to two tables (the entries and the dedupe log) and touches a few pages at their ends.
 */
export class SqliteInbox extends SqliteInboxQueue implements BackendInbox {
  private readonly batcher: WriteBatcher<AcceptRecord, AcceptResult>;
  private readonly dedupe: DedupeLog;
  private readonly sweepTx: (now: number) => void;

  constructor(
    db: Database,
    clock: Clock,
    private readonly options: SqliteInboxOptions,
  ) {
    super(db, clock, options.owner);
    this.dedupe = new DedupeLog(db);
    const commitBatch = db.transaction((items: AcceptRecord[]) => {
      const now = this.clock.now();
      this.dedupe.catchUp(now);
      const results = items.map((item) => this.acceptOne(item, now));
      this.dedupe.write();
      return results;
    });
    this.batcher = new WriteBatcher({
      commit: (items) => {
        try {
          const results = commitBatch.immediate(items);
          this.dedupe.committed();
          return results;
        } catch (error) {
          this.dedupe.rolledBack();
          throw error;
        }
      },
      windowMs: options.batchWindowMs,
      maxBatch: options.maxBatch,
      ...(options.onBatchCommit ? { onCommit: options.onBatchCommit } : {}),
    });
    this.sweepTx = db.transaction((now: number) => this.dedupe.sweep(now)).immediate;
    // the keys other connections (and earlier runs) wrote, so the first lookups are exact without a write lock
    db.transaction(() => this.dedupe.catchUp(clock.now()))();
  }

  /** Checked and serialised before it gets here (`assembleStore`), so one bad delivery cannot fail its batch-mates. */
  async accept(record: AcceptRecord): Promise<AcceptResult> {
    return this.batcher.submit(record);
  }

  /** Commits waiting accepts now (at close). */
  flush(): void {
    this.batcher.flush();
  }

  /** Forgets dedupe keys past their TTL (the store's sweeper). */
  sweep(): void {
    this.sweepTx(this.clock.now());
  }

  /** Dedupe keys held in memory (tests). */
  get liveDedupeKeys(): number {
    return this.dedupe.size;
  }

  private acceptOne(record: AcceptRecord, now: number): AcceptResult {
    const keys = dedupeKeys(record);
    if (this.dedupe.has(keys.delivery, now)) return { accepted: false, duplicateOf: 'delivery' };
    if (keys.dedupe && this.dedupe.has(keys.dedupe, now)) return { accepted: false, duplicateOf: 'dedupe_key' };
    const expiresAt = now + this.options.dedupeTtlMs;
    this.dedupe.add(keys.delivery, expiresAt);
    if (keys.dedupe) this.dedupe.add(keys.dedupe, expiresAt);
    return { accepted: true, id: this.insertNow(record.json, now) };
  }
}
