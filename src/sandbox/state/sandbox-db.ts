import Database from 'better-sqlite3';

/**
 * The sandbox's own state: a separate "platform", so it keeps its own database and never uses the
 * runtime's store. Every record is a JSON document of a kind (`users`, `posts`, ...) with an integer
 * id from a per-kind counter, so ids are deterministic for a given seed and sequence of actions.
 *
 * Reads come from memory (lists over 10,000 users must stay cheap); every write goes through to
 * SQLite at once, so a sandbox started with a data file finds its state again after a restart.
 */
export type Row = { id: number } & Record<string, unknown>;

export interface SandboxDbOptions {
  /** A SQLite file to keep state across restarts; omitted: memory only. */
  file?: string;
}

export class SandboxDb {
  private readonly sqlite: Database.Database;
  private readonly tables = new Map<string, Map<number, Row>>();
  private readonly counters = new Map<string, number>();
  private readonly meta = new Map<string, unknown>();
  private writes = 0;
  /** What `derived` worked out, and the write count it holds for. */
  private readonly derivations = new Map<string, unknown>();
  private derivedAt = 0;
  private readonly stmts: {
    upsert: Database.Statement;
    remove: Database.Statement;
    clear: Database.Statement;
    setCounter: Database.Statement;
    setMeta: Database.Statement;
    clearCounters: Database.Statement;
    clearMeta: Database.Statement;
  };

  constructor(options: SandboxDbOptions = {}) {
    this.sqlite = new Database(options.file ?? ':memory:');
    this.sqlite.pragma('journal_mode = WAL');
    // no fsync per commit (SQLite's default in WAL mode is FULL): an emulator's state need not survive a
    // power cut, and a fresh start's seed and provisioning commit ~60 times, each fsync 2-10 ms of waiting
    // on a busy disk. A crashed process loses nothing (the WAL is written at each commit either way).
    this.sqlite.pragma('synchronous = NORMAL');
    this.sqlite.exec(`
      CREATE TABLE IF NOT EXISTS docs (kind TEXT NOT NULL, id INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, id));
      CREATE TABLE IF NOT EXISTS counters (kind TEXT PRIMARY KEY, value INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.stmts = {
      upsert: this.sqlite.prepare('INSERT INTO docs (kind, id, data) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data'),
      remove: this.sqlite.prepare('DELETE FROM docs WHERE kind = ? AND id = ?'),
      clear: this.sqlite.prepare('DELETE FROM docs'),
      setCounter: this.sqlite.prepare('INSERT INTO counters (kind, value) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET value = excluded.value'),
      setMeta: this.sqlite.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      clearCounters: this.sqlite.prepare('DELETE FROM counters'),
      clearMeta: this.sqlite.prepare('DELETE FROM meta'),
    };
    this.load();
  }

  /** How many writes this process made: a reader that saw the same number before has seen every change (the playground's live view). */
  get version(): number {
    return this.writes;
  }

  /** True when the database held no records when opened (a fresh sandbox needs seeding). */
  get isEmpty(): boolean {
    return [...this.tables.values()].every((t) => t.size === 0);
  }

  insert<T extends Record<string, unknown>>(kind: string, data: T): T & { id: number } {
    const id = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, id);
    this.writes += 1;
    const row = { ...data, id } as T & { id: number };
    this.table(kind).set(id, row);
    this.stmts.setCounter.run(kind, id);
    this.stmts.upsert.run(kind, id, JSON.stringify(row));
    return row;
  }

  get<T extends Row = Row>(kind: string, id: number): T | undefined {
    return this.table(kind).get(id) as T | undefined;
  }

  /** Shallow-merges `patch` into the record; returns the new record or undefined when absent. */
  update<T extends Row = Row>(kind: string, id: number, patch: Partial<T>): T | undefined {
    const current = this.table(kind).get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch, id } as T;
    this.writes += 1;
    this.table(kind).set(id, next);
    this.stmts.upsert.run(kind, id, JSON.stringify(next));
    return next;
  }

  remove(kind: string, id: number): boolean {
    const existed = this.table(kind).delete(id);
    if (existed) {
      this.writes += 1;
      this.stmts.remove.run(kind, id);
    }
    return existed;
  }

  /** Every record of a kind, in id order (insertion order). */
  all<T extends Row = Row>(kind: string): T[] {
    return [...this.table(kind).values()] as T[];
  }

  find<T extends Row = Row>(kind: string, predicate: (row: T) => boolean): T | undefined {
    for (const row of this.table(kind).values()) if (predicate(row as T)) return row as T;
    return undefined;
  }

  filter<T extends Row = Row>(kind: string, predicate: (row: T) => boolean): T[] {
    return this.all<T>(kind).filter(predicate);
  }

  /**
   * `compute()`, remembered under `key` until the next write. For what a list works out from thousands of
   * records (the users that a page of `GET /users` is cut from): paging through the `large` seed filtered
   * all 10,000 users again for each of its 200 pages. `compute` must depend on the records alone (not on
   * the clock or the settings), and its callers must not change what it returns.
   *
   * @example
   * const listed = db.derived(`users:listed:${groupId}`, () => db.filter(KIND.users, isListed));
   */
  derived<T>(key: string, compute: () => T): T {
    if (this.derivedAt !== this.writes) {
      this.derivations.clear();
      this.derivedAt = this.writes;
    }
    if (this.derivations.has(key)) return this.derivations.get(key) as T;
    const value = compute();
    this.derivations.set(key, value);
    return value;
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.meta.set(key, value);
    this.writes += 1;
    this.stmts.setMeta.run(key, JSON.stringify(value));
  }

  /** Runs several writes in one SQLite transaction (seeding thousands of rows). */
  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn)();
  }

  /** Forgets everything: records, id counters and meta. */
  clear(): void {
    this.writes += 1;
    this.tables.clear();
    this.counters.clear();
    this.meta.clear();
    this.stmts.clear.run();
    this.stmts.clearCounters.run();
    this.stmts.clearMeta.run();
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }

  private table(kind: string): Map<number, Row> {
    let table = this.tables.get(kind);
    if (!table) {
      table = new Map();
      this.tables.set(kind, table);
    }
    return table;
  }

  private load(): void {
    const docs = this.sqlite.prepare('SELECT kind, id, data FROM docs ORDER BY kind, id').all() as { kind: string; id: number; data: string }[];
    for (const doc of docs) this.table(doc.kind).set(doc.id, JSON.parse(doc.data) as Row);
    const counters = this.sqlite.prepare('SELECT kind, value FROM counters').all() as { kind: string; value: number }[];
    for (const c of counters) this.counters.set(c.kind, c.value);
    const meta = this.sqlite.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    for (const m of meta) this.meta.set(m.key, JSON.parse(m.value));
  }
}
