import type { Database, Statement } from 'better-sqlite3';

interface LogRow {
  seq: number;
  /** A JSON array of the keys one batch remembered. */
  keys: string;
  expires_at: number;
}

/**
 * The inbox's dedupe keys: an append-only table (`inbox_dedupe`, one row per committed batch) for
 * durability and for other connections, and an in-memory index of the live keys for lookups. Appending
 * touches one page per commit where a B-tree keyed by random delivery ids touched one per key, and the
 * acknowledgement of every webhook waits for that commit.
 *
 * Exact across connections to the same file: `catchUp` runs inside the write transaction (which holds
 * SQLite's write lock), so every key another process committed before is known before a key is checked.
 * A batch's new keys are visible to its own lookups at once, but enter the index only once their
 * transaction committed: a rolled-back batch leaves no key behind that would wrongly drop the
 * platform's retry.
 *
 * Memory: about 150 bytes per live key (two per delivery for post and comment events), for the dedupe TTL.
 */
export class DedupeLog {
  /** Key -> expiry (ms). Insertion order is expiry order as long as the TTL does not change. */
  private readonly live = new Map<string, number>();
  /** Keys of the open transaction, not yet committed. */
  private pending = new Map<string, number>();
  private lastSeq = 0;
  private pendingSeq = 0;
  private readonly since: Statement;
  private readonly append: Statement;
  private readonly oldest: Statement;
  private readonly deleteUpTo: Statement;

  constructor(db: Database) {
    this.since = db.prepare('SELECT seq, keys, expires_at FROM inbox_dedupe WHERE seq > ? ORDER BY seq');
    this.append = db.prepare('INSERT INTO inbox_dedupe (keys, expires_at) VALUES (?, ?)');
    this.oldest = db.prepare('SELECT seq, expires_at FROM inbox_dedupe ORDER BY seq');
    this.deleteUpTo = db.prepare('DELETE FROM inbox_dedupe WHERE seq <= ?');
  }

  /** Within a write transaction, before the first lookup: takes in what other connections appended. */
  catchUp(now: number): void {
    for (const row of this.since.iterate(this.lastSeq) as IterableIterator<LogRow>) {
      if (row.expires_at > now) for (const key of JSON.parse(row.keys) as string[]) this.put(this.live, key, row.expires_at);
      this.lastSeq = row.seq;
    }
    this.pendingSeq = this.lastSeq;
  }

  has(key: string, now: number): boolean {
    const expiresAt = this.pending.get(key) ?? this.live.get(key);
    return expiresAt !== undefined && expiresAt > now;
  }

  /** Within the write transaction: visible to `has` at once, written by `write`. */
  add(key: string, expiresAt: number): void {
    this.put(this.pending, key, expiresAt);
  }

  /** Within the write transaction, after the batch's last `add`: its keys as one row. */
  write(): void {
    if (this.pending.size === 0) return;
    const expiresAt = Math.max(...this.pending.values());
    this.pendingSeq = Number(this.append.run(JSON.stringify([...this.pending.keys()]), expiresAt).lastInsertRowid);
  }

  /** The transaction committed: its keys are part of the index. */
  committed(): void {
    for (const [key, expiresAt] of this.pending) this.put(this.live, key, expiresAt);
    this.pending = new Map();
    this.lastSeq = this.pendingSeq;
  }

  /** The transaction rolled back: its keys were never written. */
  rolledBack(): void {
    this.pending = new Map();
    this.pendingSeq = this.lastSeq;
  }

  /**
   * Forgets expired keys, in memory and in the log (within a write transaction). The log is read from its
   * oldest row and cut before the first live one, so a sweep costs what it removes.
   */
  sweep(now: number): void {
    for (const [key, expiresAt] of this.live) {
      if (expiresAt > now) break;
      this.live.delete(key);
    }
    let cut: number | undefined;
    for (const row of this.oldest.iterate() as IterableIterator<Pick<LogRow, 'seq' | 'expires_at'>>) {
      if (row.expires_at > now) break;
      cut = row.seq;
    }
    if (cut !== undefined) this.deleteUpTo.run(cut);
  }

  /** Live keys in memory (tests). */
  get size(): number {
    return this.live.size;
  }

  private put(map: Map<string, number>, key: string, expiresAt: number): void {
    // re-inserted at the end, so the map stays in expiry order for the sweep
    map.delete(key);
    map.set(key, expiresAt);
  }
}
