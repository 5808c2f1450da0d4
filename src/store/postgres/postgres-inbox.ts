import type { Pool } from 'pg';
import type { Clock } from '../../clock';
import type { AcceptRecord, BackendInbox } from '../backend';
import { dedupeKeys } from '../dedupe-keys';
import type { AcceptResult } from '../inbox';
import { newEntryId } from '../queue';
import { WriteBatcher } from '../write-batcher';
import { PostgresQueue } from './postgres-queue';
import { inTransaction } from './transaction';

type DedupeKeys = ReturnType<typeof dedupeKeys>;

/** The most deliveries one transaction accepts, and the most characters of stored deliveries (a larger one goes alone). */
export const POSTGRES_ACCEPT_BATCH = 256;
export const POSTGRES_ACCEPT_BATCH_BYTES = 1_048_576;

/**
 * The PostgreSQL inbox: the deliveries received in one event-loop turn are accepted together, whatever
 * their number, by one statement (one round trip, one commit): it claims every dedupe key of the batch (an
 * upsert that only takes a key that is new or past its TTL, so of two replicas offering a key at once
 * exactly one gets it) and inserts the entries of the deliveries that got all their keys. A batch whose
 * deliveries share a key (a burst with a repeat) is decided in batch order instead, in a transaction of
 * two statements. Each caller resolves once the commit is done. Keys are claimed in sorted order, so two
 * batches sharing keys cannot deadlock. A delivery refused for its second key leaves its delivery id
 * remembered: a retry of it is still a duplicate, only reported by id.
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

  /** Claims the keys `$1` that are new or past their TTL (`$3`: now) until `$2`, in sorted order (two batches cannot deadlock). */
  private get claimSql(): string {
    return `INSERT INTO "${this.schema}".dedupe AS d (key, expires_at) SELECT k, $2 FROM unnest($1::text[]) AS k ORDER BY k
      ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE d.expires_at <= $3 RETURNING key`;
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
    const all = keys.flatMap((k) => (k.dedupe === undefined ? [k.delivery] : [k.delivery, k.dedupe]));
    const offered = [...new Set(all)];
    // the usual batch, whose deliveries share no key, in one statement (one round trip, no BEGIN / COMMIT)
    if (offered.length === all.length) return this.commitAtOnce(items, keys, offered, now);
    return this.commitInTurn(items, keys, offered, now);
  }

  /** The claim of every key and the insert of the entries whose keys were all claimed, as one statement. */
  private async commitAtOnce(items: AcceptRecord[], keys: DedupeKeys[], offered: string[], now: number): Promise<AcceptResult[]> {
    const ids = items.map(() => newEntryId(now));
    const { rows } = await this.pool.query<{ claimed: string[] }>(
      `WITH claimed AS (${this.claimSql}),
       entry AS (INSERT INTO ${this.t} (id, target, payload, not_before, available_at, enqueued_at)
         SELECT r.id, r.id, r.payload, $3, $3, $3 FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS r (id, payload, k1, k2)
         WHERE r.k1 IN (SELECT key FROM claimed) AND (r.k2 IS NULL OR r.k2 IN (SELECT key FROM claimed)) RETURNING 1),
       told AS (SELECT pg_notify($8, 'inbox') FROM (SELECT 1 FROM entry LIMIT 1) AS one)
       SELECT ARRAY(SELECT key FROM claimed) AS claimed, (SELECT count(*) FROM told) AS told`,
      [offered, now + this.dedupeTtlMs, now, ids, items.map((item) => item.json), keys.map((k) => k.delivery), keys.map((k) => k.dedupe ?? null), this.channel],
    );
    const claimed = new Set(rows[0]?.claimed ?? []);
    return keys.map(({ delivery, dedupe }, i): AcceptResult => {
      if (!claimed.has(delivery)) return { accepted: false, duplicateOf: 'delivery' };
      if (dedupe !== undefined && !claimed.has(dedupe)) return { accepted: false, duplicateOf: 'dedupe_key' };
      return { accepted: true, id: ids[i]! };
    });
  }

  /** A batch whose deliveries share a key: the keys claimed first, then each delivery decided in batch order, in one transaction. */
  private async commitInTurn(items: AcceptRecord[], keys: DedupeKeys[], offered: string[], now: number): Promise<AcceptResult[]> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ key: string }>(this.claimSql, [offered, now + this.dedupeTtlMs, now]);
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
