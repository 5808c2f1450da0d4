import type { Database } from 'better-sqlite3';
import { StoreUnavailableError } from '../store-errors';

export interface SqliteMigration {
  version: number;
  description: string;
  up: string;
}

/** Append only: a released migration is never edited, a change is a new version. */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    description: 'meta, key-value spaces, claims, secrets',
    up: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE kv (
        namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER,
        PRIMARY KEY (namespace, key)
      ) WITHOUT ROWID;
      CREATE INDEX kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL;
      CREATE TABLE claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE secrets (name TEXT PRIMARY KEY, sealed TEXT NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: 'durable queues (inbox, outbox), delivery dedupe, rate budget log',
    up: `
      CREATE TABLE queue_entries (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        queue TEXT NOT NULL,
        target TEXT NOT NULL,
        payload TEXT NOT NULL,
        dead INTEGER NOT NULL DEFAULT 0,
        not_before INTEGER NOT NULL,
        available_at INTEGER NOT NULL,
        lease_until INTEGER NOT NULL DEFAULT 0,
        lease_token TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        dead_reason TEXT,
        enqueued_at INTEGER NOT NULL
      );
      CREATE INDEX queue_line ON queue_entries (queue, dead, target, seq);
      CREATE INDEX queue_due ON queue_entries (queue, dead, available_at);
      CREATE TABLE dedupe (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX dedupe_expiry ON dedupe (expires_at);
      CREATE TABLE rate_log (key TEXT PRIMARY KEY, stamps TEXT NOT NULL) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    description: 'the inbox in its own append-friendly table; delivery dedupe as an append-only log',
    // Why: a webhook acknowledgement waits for the inbox commit, and a commit costs a WAL write per page
    // it touched. Random dedupe keys in a B-tree touched a page per key, and queue_entries has three
    // indexes the inbox does not need (each inbox entry is its own target). Rows of both new tables are
    // appended at the right edge (AUTOINCREMENT: a rowid is never reused, so readers can follow the log
    // by seq), and a batch's dedupe keys go in one row (a JSON array), so a commit touches a handful of
    // pages however many deliveries it carries.
    up: `
      CREATE TABLE inbox_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        payload TEXT NOT NULL,
        dead INTEGER NOT NULL DEFAULT 0,
        not_before INTEGER NOT NULL,
        available_at INTEGER NOT NULL,
        lease_until INTEGER NOT NULL DEFAULT 0,
        lease_token TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        dead_reason TEXT,
        enqueued_at INTEGER NOT NULL
      );
      CREATE INDEX inbox_due ON inbox_entries (dead, available_at);
      INSERT INTO inbox_entries (payload, dead, not_before, available_at, lease_until, lease_token, attempts, last_error, dead_reason, enqueued_at)
        SELECT payload, dead, not_before, available_at, lease_until, lease_token, attempts, last_error, dead_reason, enqueued_at
        FROM queue_entries WHERE queue = 'inbox' ORDER BY seq;
      DELETE FROM queue_entries WHERE queue = 'inbox';
      CREATE TABLE inbox_dedupe (seq INTEGER PRIMARY KEY AUTOINCREMENT, keys TEXT NOT NULL, expires_at INTEGER NOT NULL);
      INSERT INTO inbox_dedupe (keys, expires_at) SELECT json_array(key), expires_at FROM dedupe ORDER BY expires_at;
      DROP TABLE dedupe;
    `,
  },
  {
    version: 4,
    description: 'lost leases in a row per queue entry, so an entry no holder ever answers for goes dead instead of looping',
    up: `
      ALTER TABLE queue_entries ADD COLUMN lost_leases INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE inbox_entries ADD COLUMN lost_leases INTEGER NOT NULL DEFAULT 0;
    `,
  },
];

export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

export function currentVersion(db: Database): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as { version: number | null };
  return row.version ?? 0;
}

/**
 * Brings the database to the newest version, one migration per transaction (a crash mid-way leaves a
 * consistent earlier version). Idempotent; refuses a database written by a newer intrabot.
 */
export function migrate(db: Database, migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS): number {
  const step = db.transaction((migration: SqliteMigration) => {
    // re-read inside the write transaction: another process may have migrated meanwhile
    if (currentVersion(db) >= migration.version) return;
    db.exec(migration.up);
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(migration.version);
  });
  const found = currentVersion(db);
  const newest = migrations.at(-1)?.version ?? 0;
  if (found > SQLITE_SCHEMA_VERSION) {
    throw new StoreUnavailableError(`the SQLite store is at schema version ${found}, newer than this intrabot (${SQLITE_SCHEMA_VERSION})`);
  }
  for (const migration of migrations) if (migration.version > found) step.immediate(migration);
  return Math.max(found, newest);
}
