import type { Pool } from 'pg';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { IntrabotError } from '../../errors';
import type { BackendOutbox, ListQueueOptions } from '../backend';
import { LOST_LEASES_REASON, MAX_LOST_LEASES, newEntryId, type EnqueueInputSchema, type LeaseRef, type QueueEntry, type QueueLease } from '../queue';
import { rowToEntry, type SqlQueueRow } from '../queue-row';

/** A row of `inbox` or `outbox`. */
type QueueRow = SqlQueueRow & { dead: boolean };

/**
 * One durable queue in its table (`inbox`, where each entry is its own target, or `outbox`, in lines per
 * target). `reserveMany` is one statement: the due entries, `FOR UPDATE SKIP LOCKED` (replicas reserving
 * at once take different rows, none waits), leased in the same step. In the outbox only a line's head is
 * due: an entry with a live entry of its target before it (smaller `seq`) is never taken, so a target's
 * entries go one at a time and in order. `seq` order is commit order within a target: every write that
 * puts an entry at the end of a line takes the line's advisory lock for its transaction.
 *
 * The heads are marked in the table (`head`, kept by triggers: schema version 2), so a reservation reads
 * only heads through their own index, however deep the lines (a line of thousands behind a head that
 * backs off costs nothing).
 */
export class PostgresQueue implements BackendOutbox {
  protected readonly t: string;
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    protected readonly pool: Pool,
    protected readonly schema: string,
    table: 'inbox' | 'outbox',
    protected readonly clock: Clock,
    /** The NOTIFY channel told of new work (`watch`). */
    protected readonly channel: string,
  ) {
    this.t = `"${schema}".${table}`;
    this.sql = statements(this.t, `"${schema}".entry_seq`, table === 'outbox');
  }

  /** The key of `target`'s line's advisory lock (held to the end of the statement's transaction). */
  private lineKey(target: string): string {
    return `intrabot:line:${this.schema}:${target}`;
  }

  async enqueue(input: z.output<typeof EnqueueInputSchema>): Promise<QueueEntry> {
    const now = this.clock.now();
    const id = input.id ?? newEntryId(now);
    try {
      const { rows } = await this.pool.query<QueueRow>(this.sql.enqueue, [
        this.lineKey(input.target),
        id,
        input.target,
        JSON.stringify(input.payload),
        input.notBeforeMs ?? now,
        now,
        this.channel,
      ]);
      return rowToEntry(rows[0]!, now);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new IntrabotError('conflict', `queue entry ${id} exists already`);
      throw error;
    }
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease[]> {
    const leases: QueueLease[] = [];
    for (;;) {
      const now = this.clock.now();
      const { rows } = await this.pool.query<QueueRow>(this.sql.reserve, [now, max - leases.length, now + leaseMs]);
      let poisoned = false;
      for (const row of rows) {
        const entry = rowToEntry(row, now);
        // a poison entry goes to the dead letters instead of being handed out, and the next ones are looked up
        const poison = row.lost_leases >= MAX_LOST_LEASES ? LOST_LEASES_REASON : entry.unreadable;
        if (poison === undefined) leases.push({ ...entry, leaseToken: row.lease_token! });
        else poisoned = (await this.deadLetter({ id: row.id, leaseToken: row.lease_token! }, poison)) || poisoned;
      }
      if (!poisoned || leases.length >= max) return leases;
    }
  }

  async complete(lease: LeaseRef): Promise<boolean> {
    return this.changed(this.sql.complete, [lease.id, lease.leaseToken]);
  }

  async retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> {
    return this.changed(this.sql.retry, [lease.id, lease.leaseToken, notBeforeMs, error]);
  }

  async defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> {
    return this.changed(this.sql.defer, [lease.id, lease.leaseToken, notBeforeMs, note]);
  }

  async setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean> {
    return this.changed(this.sql.aside, [lease.id, lease.leaseToken, notBeforeMs, note, target, this.lineKey(target)]);
  }

  async deadLetter(lease: LeaseRef, reason: string): Promise<boolean> {
    return this.changed(this.sql.deadLetter, [lease.id, lease.leaseToken, reason]);
  }

  async extend(lease: LeaseRef, leaseMs: number): Promise<boolean> {
    return this.changed(this.sql.extend, [lease.id, lease.leaseToken, this.clock.now() + leaseMs]);
  }

  async get(id: string): Promise<QueueEntry | undefined> {
    const { rows } = await this.pool.query<QueueRow>(`SELECT * FROM ${this.t} WHERE id = $1`, [id]);
    return rows[0] && rowToEntry(rows[0], this.clock.now());
  }

  async list(input: ListQueueOptions): Promise<QueueEntry[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<QueueRow>(this.sql.list, [input.state === 'dead', input.target ?? null, input.limit]);
    return rows.map((row) => rowToEntry(row, now));
  }

  /** A dead letter goes back to the end of its target's line, attempts reset; a waiting entry becomes due now; a leased one stays. */
  async requeue(id: string): Promise<boolean> {
    const entry = await this.get(id);
    if (!entry || entry.state === 'leased') return false;
    const now = this.clock.now();
    if (entry.state === 'pending') return this.changed(this.sql.dueNow, [id, now]);
    return this.changed(this.sql.revive, [id, now, this.lineKey(entry.target)]);
  }

  async drop(id: string): Promise<boolean> {
    return this.changed(`DELETE FROM ${this.t} WHERE id = $1 AND (dead OR lease_until <= $2)`, [id, this.clock.now()]);
  }

  async depth(target: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.t} WHERE NOT dead AND target = $1`, [target]);
    return rows[0]?.n ?? 0;
  }

  private async changed(sql: string, args: unknown[]): Promise<boolean> {
    return ((await this.pool.query(sql, args)).rowCount ?? 0) > 0;
  }
}

function statements(t: string, seq: string, lines: boolean) {
  const held = 'id = $1 AND NOT dead AND lease_token = $2';
  const headOnly = lines ? 'AND e.head' : '';
  // a CTE holding a line's lock; the statement that joins it writes only once the lock is held
  const lock = (param: string): string => `WITH line AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtextextended(${param}, 0)))`;
  return {
    enqueue: `${lock('$1')}, entry AS (INSERT INTO ${t} (id, target, payload, not_before, available_at, enqueued_at)
      SELECT $2, $3, $4, $5, $5, $6 FROM line RETURNING *)
      SELECT entry.*, pg_notify($7, 'outbox') IS NULL AS told FROM entry`,
    // a lease taken while the previous one's token is still set: that lease ran out with no answer
    reserve: `WITH due AS (SELECT e.id FROM ${t} e WHERE NOT e.dead AND e.available_at <= $1 ${headOnly}
        ORDER BY e.available_at, e.seq LIMIT $2 FOR UPDATE OF e SKIP LOCKED)
      UPDATE ${t} q SET lease_until = $3, available_at = $3, lease_token = gen_random_uuid()::text, attempts = q.attempts + 1,
        lost_leases = CASE WHEN q.lease_token IS NULL THEN 0 ELSE q.lost_leases + 1 END
      FROM due WHERE q.id = due.id RETURNING q.*`,
    complete: `DELETE FROM ${t} WHERE ${held}`,
    retry: `UPDATE ${t} SET not_before = $3, available_at = $3, last_error = $4, lease_until = 0, lease_token = NULL WHERE ${held}`,
    // the hand-out that is given back does not count
    defer: `UPDATE ${t} SET not_before = $3, available_at = $3, last_error = $4, attempts = greatest(attempts - 1, 0),
      lease_until = 0, lease_token = NULL WHERE ${held}`,
    // to the end of another line: a new seq, under that line's lock
    aside: `${lock('$6')} UPDATE ${t} SET target = $5, seq = nextval('${seq}'), not_before = $3, available_at = $3,
      last_error = $4, attempts = greatest(attempts - 1, 0), lease_until = 0, lease_token = NULL FROM line WHERE ${held}`,
    deadLetter: `UPDATE ${t} SET dead = true, dead_reason = $3, lease_until = 0, lease_token = NULL WHERE ${held}`,
    extend: `UPDATE ${t} SET lease_until = $3, available_at = $3 WHERE ${held}`,
    list: `SELECT * FROM ${t} WHERE dead = $1 AND ($2::text IS NULL OR target = $2) ORDER BY seq LIMIT $3`,
    dueNow: `UPDATE ${t} SET not_before = least(not_before, $2), available_at = least(available_at, $2)
      WHERE id = $1 AND NOT dead AND (lease_token IS NULL OR lease_until <= $2)`,
    revive: `${lock('$3')} UPDATE ${t} SET dead = false, dead_reason = NULL, attempts = 0, not_before = $2, available_at = $2,
      seq = nextval('${seq}') FROM line WHERE id = $1 AND dead`,
  };
}
