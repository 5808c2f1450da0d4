import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { BackendQueue, ListQueueOptions } from '../backend';
import { LOST_LEASES_REASON, MAX_LOST_LEASES, type LeaseRef, type QueueEntry, type QueueLease } from '../queue';
import { leaseToken as leaseTokenOf } from './gone-leases';
import { rowToEntry, type QueueRow } from './sqlite-queue';

/** A row of `inbox_entries`: a queue row without the columns the inbox does not need. */
type InboxRow = Omit<QueueRow, 'id' | 'target'>;

/** An inbox entry's id is its row's seq (AUTOINCREMENT: never reused), as a string like every queue id. */
const idOf = (seq: number): string => String(seq);

function seqOf(id: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(id) ? Number(id) : undefined;
}

/** Each inbox entry is its own target: entries are independent, a slow one holds up nothing. */
const toEntry = (row: InboxRow, now: number): QueueEntry => rowToEntry({ ...row, id: idOf(row.seq), target: idOf(row.seq) }, now);

/**
 * The inbox's queue, in its own table (`inbox_entries`): no per-target lines, since every entry is its
 * own target, so one index (due entries by time) serves `reserve`, and an insert appends at the right
 * edge of the table and of that index. Same semantics as the other queues (leases, retries, dead letters).
 */
export class SqliteInboxQueue implements BackendQueue {
  private readonly sql: Record<
    'insert' | 'nextDue' | 'lease' | 'complete' | 'retry' | 'defer' | 'deadLetter' | 'extend' | 'get' | 'list' | 'revive' | 'dueNow' | 'drop',
    Statement
  >;
  private readonly reserveTx: (now: number, leaseMs: number, max: number) => QueueLease[];

  constructor(
    db: Database,
    protected readonly clock: Clock,
    /** Named in every lease token, so a restart can tell leases a crashed process left (`gone-leases.ts`). */
    private readonly owner?: string,
  ) {
    this.sql = prepare(db);
    this.reserveTx = db.transaction((now: number, leaseMs: number, max: number) => this.reserveNow(now, leaseMs, max)).immediate;
  }

  /** Within the caller's transaction (the inbox batcher's); returns the new entry's id. */
  insertNow(payloadJson: string, now: number): string {
    return idOf(Number(this.sql.insert.run({ payload: payloadJson, now }).lastInsertRowid));
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease[]> {
    return this.reserveTx(this.clock.now(), leaseMs, max);
  }

  private reserveNow(now: number, leaseMs: number, max: number): QueueLease[] {
    const leases: QueueLease[] = [];
    while (leases.length < max) {
      // a leased entry's available_at moves to its lease's end, so the next lookup finds another one
      const row = this.sql.nextDue.get(now) as { seq: number } | undefined;
      if (!row) break;
      const leaseToken = leaseTokenOf(this.owner);
      const leased = this.sql.lease.get({ seq: row.seq, until: now + leaseMs, token: leaseToken }) as InboxRow;
      const entry = toEntry(leased, now);
      // a poison entry goes to the dead letters in this same step, and the next one is looked up
      const poison = leased.lost_leases >= MAX_LOST_LEASES ? LOST_LEASES_REASON : entry.unreadable;
      if (poison === undefined) leases.push({ ...entry, leaseToken });
      else this.sql.deadLetter.run({ seq: row.seq, token: leaseToken, reason: poison });
    }
    return leases;
  }

  async complete(lease: LeaseRef): Promise<boolean> {
    return this.held(lease, (seq) => this.sql.complete.run({ seq, token: lease.leaseToken }).changes === 1);
  }

  async retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> {
    return this.held(lease, (seq) => this.sql.retry.run({ seq, token: lease.leaseToken, notBefore: notBeforeMs, error }).changes === 1);
  }

  async defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> {
    return this.held(lease, (seq) => this.sql.defer.run({ seq, token: lease.leaseToken, notBefore: notBeforeMs, error: note }).changes === 1);
  }

  async deadLetter(lease: LeaseRef, reason: string): Promise<boolean> {
    return this.held(lease, (seq) => this.sql.deadLetter.run({ seq, token: lease.leaseToken, reason }).changes === 1);
  }

  async extend(lease: LeaseRef, leaseMs: number): Promise<boolean> {
    const until = this.clock.now() + leaseMs;
    return this.held(lease, (seq) => this.sql.extend.run({ seq, token: lease.leaseToken, until }).changes === 1);
  }

  async get(id: string): Promise<QueueEntry | undefined> {
    const seq = seqOf(id);
    const row = seq === undefined ? undefined : (this.sql.get.get(seq) as InboxRow | undefined);
    return row && toEntry(row, this.clock.now());
  }

  async list(input: ListQueueOptions): Promise<QueueEntry[]> {
    const seq = input.target === undefined ? null : (seqOf(input.target) ?? -1);
    const now = this.clock.now();
    const rows = this.sql.list.all({ dead: input.state === 'dead' ? 1 : 0, seq, limit: input.limit }) as InboxRow[];
    return rows.map((row) => toEntry(row, now));
  }

  async requeue(id: string): Promise<boolean> {
    const seq = seqOf(id);
    if (seq === undefined) return false;
    const now = this.clock.now();
    // a dead letter comes back with its attempts reset; a waiting entry becomes due now; a leased one stays
    if (this.sql.revive.run({ seq, now }).changes === 1) return true;
    return this.sql.dueNow.run({ seq, now }).changes === 1;
  }

  async drop(id: string): Promise<boolean> {
    const seq = seqOf(id);
    return seq !== undefined && this.sql.drop.run({ seq, now: this.clock.now() }).changes === 1;
  }

  private held(lease: LeaseRef, run: (seq: number) => boolean): boolean {
    const seq = seqOf(lease.id);
    return seq !== undefined && run(seq);
  }
}

function prepare(db: Database): SqliteInboxQueue['sql'] {
  const held = 'seq = @seq AND dead = 0 AND lease_token = @token';
  return {
    insert: db.prepare('INSERT INTO inbox_entries (payload, not_before, available_at, enqueued_at) VALUES (@payload, @now, @now, @now)'),
    nextDue: db.prepare('SELECT seq FROM inbox_entries WHERE dead = 0 AND available_at <= ? ORDER BY available_at, seq LIMIT 1'),
    // a lease taken while the previous one's token is still set: that lease ran out with no answer
    lease: db.prepare(`UPDATE inbox_entries SET lease_until = @until, available_at = @until, lease_token = @token, attempts = attempts + 1,
      lost_leases = CASE WHEN lease_token IS NULL THEN 0 ELSE lost_leases + 1 END WHERE seq = @seq RETURNING *`),
    complete: db.prepare(`DELETE FROM inbox_entries WHERE ${held}`),
    retry: db.prepare(`UPDATE inbox_entries SET not_before = @notBefore, available_at = @notBefore, last_error = @error,
      lease_until = 0, lease_token = NULL WHERE ${held}`),
    // the hand-out that is given back does not count
    defer: db.prepare(`UPDATE inbox_entries SET not_before = @notBefore, available_at = @notBefore, last_error = @error,
      attempts = MAX(attempts - 1, 0), lease_until = 0, lease_token = NULL WHERE ${held}`),
    deadLetter: db.prepare(`UPDATE inbox_entries SET dead = 1, dead_reason = @reason, lease_until = 0, lease_token = NULL WHERE ${held}`),
    extend: db.prepare(`UPDATE inbox_entries SET lease_until = @until, available_at = @until WHERE ${held}`),
    get: db.prepare('SELECT * FROM inbox_entries WHERE seq = ?'),
    list: db.prepare('SELECT * FROM inbox_entries WHERE dead = @dead AND (@seq IS NULL OR seq = @seq) ORDER BY seq LIMIT @limit'),
    revive: db.prepare(`UPDATE inbox_entries SET dead = 0, dead_reason = NULL, attempts = 0, not_before = @now, available_at = @now
      WHERE seq = @seq AND dead = 1`),
    dueNow: db.prepare(`UPDATE inbox_entries SET not_before = MIN(not_before, @now), available_at = MIN(available_at, @now)
      WHERE seq = @seq AND dead = 0 AND (lease_token IS NULL OR lease_until <= @now)`),
    drop: db.prepare('DELETE FROM inbox_entries WHERE seq = @seq AND (dead = 1 OR lease_until <= @now)'),
  };
}
