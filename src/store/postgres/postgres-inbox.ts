import type { Pool } from 'pg';
import type { Clock } from '../../clock';
import type { AcceptRecord, BackendInbox } from '../backend';
import { dedupeKeys } from '../dedupe-keys';
import type { AcceptResult } from '../inbox';
import { newEntryId } from '../queue';
import { WriteBatcher } from '../write-batcher';
import { PostgresQueue } from './postgres-queue';
import { inTransaction } from './transaction';

/** The most deliveries one transaction accepts, and the most characters of stored deliveries (a larger one goes alone). */
export const POSTGRES_ACCEPT_BATCH = 256;
export const POSTGRES_ACCEPT_BATCH_BYTES = 1_048_576;

/**
 * The PostgreSQL inbox: the deliveries received in one event-loop turn are accepted in one transaction of
 * two statements, whatever their number: one claims every dedupe key of the batch (an upsert that only
 * takes a key that is new or past its TTL, so of two replicas offering a key at once exactly one gets it),
 * the other inserts the entries of the deliveries that got all their keys. Each caller resolves once the
 * transaction has committed. Keys are claimed in sorted order, so two batches sharing keys cannot
 * deadlock. A delivery refused for its second key leaves its delivery id remembered: a retry of it is
 * still a duplicate, only reported by id.
 */
export class PostgresInbox extends PostgresQueue implements BackendInbox {
  private readonly batcher: WriteBatcher<AcceptRecord, AcceptResult>;

  constructor(
    pool: Pool,
    schema: string,
    clock: Clock,
    channel: string,
    private readonly dedupeTtlMs: number,
  ) {
    super(pool, schema, 'inbox', clock, channel);
    this.batcher = new WriteBatcher({
      commit: (items) => this.commit(items),
      windowMs: 0,
      maxBatch: POSTGRES_ACCEPT_BATCH,
      maxWeight: POSTGRES_ACCEPT_BATCH_BYTES,
      weightOf: (item) => item.json.length,
    });
  }

  /** Checked and serialised before it gets here (`assembleStore`), so one bad delivery cannot fail its batch-mates. */
  async accept(record: AcceptRecord): Promise<AcceptResult> {
    return this.batcher.submit(record);
  }

  /** Commits the accepts waiting for their turn and waits for every commit started (before the pool closes). */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  private async commit(items: AcceptRecord[]): Promise<AcceptResult[]> {
    const now = this.clock.now();
    const keys = items.map((item) => dedupeKeys(item));
    const offered = [...new Set(keys.flatMap((k) => (k.dedupe === undefined ? [k.delivery] : [k.delivery, k.dedupe])))];
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ key: string }>(
        `INSERT INTO "${this.schema}".dedupe AS d (key, expires_at) SELECT k, $2 FROM unnest($1::text[]) AS k ORDER BY k
         ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE d.expires_at <= $3 RETURNING key`,
        [offered, now + this.dedupeTtlMs, now],
      );
      const claimed = new Set(rows.map((row) => row.key));
      // in batch order: a key claimed here goes to the first delivery that has it
      const take = (key: string): boolean => claimed.delete(key);
      const ids: string[] = [];
      const payloads: string[] = [];
      const results = items.map((item, i): AcceptResult => {
        const { delivery, dedupe } = keys[i]!;
        if (!claimed.has(delivery)) return { accepted: false, duplicateOf: 'delivery' };
        if (dedupe !== undefined && !claimed.has(dedupe)) return { accepted: false, duplicateOf: 'dedupe_key' };
        take(delivery);
        if (dedupe !== undefined) take(dedupe);
        ids.push(newEntryId(now));
        payloads.push(item.json);
        return { accepted: true, id: ids.at(-1)! };
      });
      if (ids.length > 0) {
        await client.query(
          `WITH entry AS (INSERT INTO ${this.t} (id, target, payload, not_before, available_at, enqueued_at)
             SELECT id, id, payload, $3, $3, $3 FROM unnest($1::text[], $2::text[]) AS r (id, payload) RETURNING 1)
           SELECT pg_notify($4, 'inbox') FROM (SELECT count(*) FROM entry) AS n`,
          [ids, payloads, now, this.channel],
        );
      }
      return results;
    });
  }
}
