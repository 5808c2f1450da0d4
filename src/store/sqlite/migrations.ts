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
