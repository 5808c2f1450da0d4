import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import { IntrabotError } from '../../errors';
import type { z } from 'zod';
import type { BackendOutbox, ListQueueOptions } from '../backend';
import { LOST_LEASES_REASON, MAX_LOST_LEASES, newEntryId, type EnqueueInputSchema, type LeaseRef, type QueueEntry, type QueueLease } from '../queue';
import { leaseToken as leaseTokenOf } from './gone-leases';
import { rowToEntry, type SqlQueueRow } from '../queue-row';

/** A row of `queue_entries`. */
export interface QueueRow extends SqlQueueRow {
  seq: number;
  dead: number;
}

export { rowToEntry };

/** `available_at` of an entry waiting behind its target's head: never due. */
export const BEHIND = Number.MAX_SAFE_INTEGER;

/**
 * One durable queue in the `queue_entries` table. Only the head of a target (its live entry with the
 * smallest `seq`) has a real `available_at` (when it is due, or when its lease runs out); the entries
 * behind it wait at BEHIND until the head leaves and the next one is promoted. So a target's entries go
 * one at a time and in order while other targets proceed, and `reserve` is one index lookup however many
 * entries wait or are in flight. Multi-statement steps are IMMEDIATE transactions, so two processes
 * sharing the file cannot both take an entry.
 */
export class SqliteQueue implements BackendOutbox {
  private readonly sql: Record<string, Statement>;
  private readonly tx: {
    insert: (row: InsertRow) => void;
    reserve: (now: number, leaseMs: number, max: number) => QueueLease[];
    leave: (statement: Statement, args: Record<string, unknown>) => boolean;
    revive: (id: string, now: number) => boolean;
    aside: (args: AsideArgs) => boolean;
  };

  constructor(
    db: Database,
    private readonly queue: string,
    private readonly clock: Clock,
    /** Named in every lease token, so a restart can tell leases a crashed process left (`gone-leases.ts`). */
    private readonly owner?: string,
  ) {
    this.sql = prepareQueueStatements(db);
    this.tx = {
      insert: db.transaction((row: InsertRow) => this.insertNow(row)).immediate,
      reserve: db.transaction((now: number, leaseMs: number, max: number) => this.reserveNow(now, leaseMs, max)).immediate,
      leave: db.transaction((statement: Statement, args: Record<string, unknown>) => this.leaveNow(statement, args)).immediate,
      revive: db.transaction((id: string, now: number) => this.reviveNow(id, now)).immediate,
      aside: db.transaction((args: AsideArgs) => this.asideNow(args)).immediate,
    };
  }

  private insertNow(input: InsertRow): void {
    const behind = this.sql.hasLine!.get({ queue: this.queue, target: input.target }) !== undefined;
    const row = {
      id: input.id,
      queue: this.queue,
      target: input.target,
      payload: JSON.stringify(input.payload),
      not_before: input.notBefore,
      available_at: behind ? BEHIND : input.notBefore,
      enqueued_at: this.clock.now(),
    };
    try {
      this.sql.insert!.run(row);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new IntrabotError('conflict', `queue entry ${input.id} exists already`);
      throw error;
    }
  }

  async enqueue(input: z.output<typeof EnqueueInputSchema>): Promise<QueueEntry> {
    const id = input.id ?? newEntryId(this.clock.now());
    this.tx.insert({ id, target: input.target, payload: input.payload, notBefore: input.notBeforeMs ?? this.clock.now() });
    return this.find(id, this.clock.now())!;
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease[]> {
    return this.tx.reserve(this.clock.now(), leaseMs, max);
  }

  private reserveNow(now: number, leaseMs: number, max: number): QueueLease[] {
    const leases: QueueLease[] = [];
    while (leases.length < max) {
      // a leased head's available_at moves to its lease's end, so the next lookup finds another entry
      const row = this.sql.nextDue!.get({ queue: this.queue, now }) as QueueRow | undefined;
      if (!row) break;
      const leaseToken = leaseTokenOf(this.owner);
      const leased = this.sql.lease!.get({ seq: row.seq, until: now + leaseMs, token: leaseToken }) as QueueRow;
      const entry = rowToEntry(leased, now);
      // a poison entry goes to the dead letters in this same step, and the next one is looked up
      const poison = leased.lost_leases >= MAX_LOST_LEASES ? LOST_LEASES_REASON : entry.unreadable;
      if (poison === undefined) leases.push({ ...entry, leaseToken });
      else this.leaveNow(this.sql.deadLetter!, { id: row.id, token: leaseToken, reason: poison });
    }
    return leases;
  }

  /** Runs a statement that takes the head out of line (RETURNING its target) and promotes the next one. */
  private leaveNow(statement: Statement, args: Record<string, unknown>): boolean {
    const gone = statement.get({ queue: this.queue, ...args }) as { target: string } | undefined;
    if (!gone) return false;
    this.sql.promote!.run({ queue: this.queue, target: gone.target });
    return true;
  }

  async complete(lease: LeaseRef): Promise<boolean> {
    return this.tx.leave(this.sql.complete!, { id: lease.id, token: lease.leaseToken });
  }

  async retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> {
    const args = { queue: this.queue, id: lease.id, token: lease.leaseToken, notBefore: notBeforeMs, error };
    return this.sql.retry!.run(args).changes === 1;
  }

  async defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> {
    const args = { queue: this.queue, id: lease.id, token: lease.leaseToken, notBefore: notBeforeMs, error: note };
    return this.sql.defer!.run(args).changes === 1;
  }

  async setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean> {
    return this.tx.aside({ id: lease.id, token: lease.leaseToken, target, notBefore: notBeforeMs, error: note });
  }

  /** The held head leaves its line for the end of `target`'s (waiting there behind any live entry), and its old line's next entry is promoted. */
  private asideNow(args: AsideArgs): boolean {
    const from = this.sql.leasedTarget!.get({ queue: this.queue, id: args.id, token: args.token }) as { target: string } | undefined;
    if (!from) return false;
    const behind = this.sql.hasLine!.get({ queue: this.queue, target: args.target }) !== undefined;
    this.sql.aside!.run({ queue: this.queue, ...args, available: behind ? BEHIND : args.notBefore });
    this.sql.promote!.run({ queue: this.queue, target: from.target });
    return true;
  }

  async deadLetter(lease: LeaseRef, reason: string): Promise<boolean> {
    return this.tx.leave(this.sql.deadLetter!, { id: lease.id, token: lease.leaseToken, reason });
  }

  async extend(lease: LeaseRef, leaseMs: number): Promise<boolean> {
    const until = this.clock.now() + leaseMs;
    return this.sql.extend!.run({ queue: this.queue, id: lease.id, token: lease.leaseToken, until }).changes === 1;
  }

  async get(id: string): Promise<QueueEntry | undefined> {
    return this.find(id, this.clock.now());
  }

  async list(input: ListQueueOptions): Promise<QueueEntry[]> {
    const args = { queue: this.queue, dead: input.state === 'dead' ? 1 : 0, target: input.target ?? null, limit: input.limit };
    const now = this.clock.now();
    return (this.sql.list!.all(args) as QueueRow[]).map((row) => rowToEntry(row, now));
  }

  async requeue(id: string): Promise<boolean> {
    return this.tx.revive(id, this.clock.now());
  }

  private reviveNow(id: string, now: number): boolean {
    const entry = this.find(id, now);
    if (!entry || entry.state === 'leased') return false;
    if (entry.state === 'pending') {
      this.sql.dueNow!.run({ queue: this.queue, id, now });
      return true;
    }
    const behind = this.sql.hasLine!.get({ queue: this.queue, target: entry.target }) !== undefined;
    this.sql.revive!.run({ queue: this.queue, id, now, available: behind ? BEHIND : now });
    return true;
  }

  async drop(id: string): Promise<boolean> {
    return this.tx.leave(this.sql.drop!, { id, now: this.clock.now() });
  }

  async depth(target: string): Promise<number> {
    return (this.sql.depth!.get({ queue: this.queue, target }) as { n: number }).n;
  }

  private find(id: string, now: number): QueueEntry | undefined {
    const row = this.sql.get!.get({ queue: this.queue, id }) as QueueRow | undefined;
    return row ? rowToEntry(row, now) : undefined;
  }
}

interface AsideArgs {
  id: string;
  token: string;
  target: string;
  notBefore: number;
  error: string;
}

interface InsertRow {
  id: string;
  target: string;
  payload: unknown;
  notBefore: number;
}

function prepareQueueStatements(db: Database): Record<string, Statement> {
  const held = 'queue = @queue AND id = @id AND dead = 0 AND lease_token = @token';
  return {
    insert: db.prepare(`INSERT INTO queue_entries (id, queue, target, payload, not_before, available_at, enqueued_at)
      VALUES (@id, @queue, @target, @payload, @not_before, @available_at, @enqueued_at)`),
    hasLine: db.prepare('SELECT 1 FROM queue_entries WHERE queue = @queue AND dead = 0 AND target = @target LIMIT 1'),
    nextDue: db.prepare('SELECT seq, id FROM queue_entries WHERE queue = @queue AND dead = 0 AND available_at <= @now ORDER BY available_at, seq LIMIT 1'),
    // a lease taken while the previous one's token is still set: that lease ran out with no answer
    lease: db.prepare(`UPDATE queue_entries SET lease_until = @until, available_at = @until, lease_token = @token, attempts = attempts + 1,
      lost_leases = CASE WHEN lease_token IS NULL THEN 0 ELSE lost_leases + 1 END WHERE seq = @seq RETURNING *`),
    promote: db.prepare(`UPDATE queue_entries SET available_at = not_before WHERE seq =
      (SELECT MIN(seq) FROM queue_entries WHERE queue = @queue AND dead = 0 AND target = @target) AND available_at = ${BEHIND}`),
    complete: db.prepare(`DELETE FROM queue_entries WHERE ${held} RETURNING target`),
    retry: db.prepare(`UPDATE queue_entries SET not_before = @notBefore, available_at = @notBefore, last_error = @error,
      lease_until = 0, lease_token = NULL WHERE ${held}`),
    // the hand-out that is given back does not count
    defer: db.prepare(`UPDATE queue_entries SET not_before = @notBefore, available_at = @notBefore, last_error = @error,
      attempts = MAX(attempts - 1, 0), lease_until = 0, lease_token = NULL WHERE ${held}`),
    leasedTarget: db.prepare(`SELECT target FROM queue_entries WHERE ${held}`),
    aside: db.prepare(`UPDATE queue_entries SET target = @target, not_before = @notBefore, available_at = @available, last_error = @error,
      attempts = MAX(attempts - 1, 0), lease_until = 0, lease_token = NULL WHERE ${held}`),
    deadLetter: db.prepare(`UPDATE queue_entries SET dead = 1, dead_reason = @reason, lease_until = 0, lease_token = NULL,
      available_at = ${BEHIND} WHERE ${held} RETURNING target`),
    extend: db.prepare(`UPDATE queue_entries SET lease_until = @until, available_at = @until WHERE ${held}`),
    get: db.prepare('SELECT * FROM queue_entries WHERE queue = @queue AND id = @id'),
    list: db.prepare(`SELECT * FROM queue_entries WHERE queue = @queue AND dead = @dead
      AND (@target IS NULL OR target = @target) ORDER BY seq LIMIT @limit`),
    // back at the end of its target's line, as if enqueued now
    revive: db.prepare(`UPDATE queue_entries SET dead = 0, dead_reason = NULL, attempts = 0, not_before = @now, available_at = @available,
      seq = (SELECT MAX(seq) + 1 FROM queue_entries) WHERE queue = @queue AND id = @id AND dead = 1`),
    dueNow: db.prepare(`UPDATE queue_entries SET not_before = MIN(not_before, @now),
      available_at = CASE WHEN available_at = ${BEHIND} THEN available_at ELSE MIN(available_at, @now) END
      WHERE queue = @queue AND id = @id AND dead = 0`),
    drop: db.prepare(`DELETE FROM queue_entries WHERE queue = @queue AND id = @id AND (dead = 1 OR lease_until <= @now) RETURNING target`),
    depth: db.prepare('SELECT COUNT(*) AS n FROM queue_entries WHERE queue = @queue AND dead = 0 AND target = @target'),
  };
}
