import type { Database } from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { StoreBackend } from '../backend';
import type { JsonValue } from '../json';
import { lineHeads, queueFieldsOfRow } from '../queue-records';
import type { SqlQueueRow } from '../queue-row';
import { recordsOfType, remainingMs, type StoreRecord } from '../store-records';
import { BEHIND } from './sqlite-queue';

type Transfer = Required<Pick<StoreBackend, 'dump' | 'restore'>>;

/**
 * The SQLite store's dump and restore. The dump reads inside one read transaction, so it sees one
 * snapshot of the file even were a runtime still writing to it (WAL: writers go on meanwhile). The
 * restore is one IMMEDIATE transaction: all or nothing.
 */
export function sqliteTransfer(db: Database, clock: Clock): Transfer {
  return {
    async *dump() {
      const now = clock.now();
      db.exec('BEGIN');
      try {
        yield* readAll(db, now);
      } finally {
        db.exec('COMMIT');
      }
    },
    async restore(records) {
      db.transaction(() => writeAll(db, records, clock.now())).immediate();
    },
  };
}

function* readAll(db: Database, now: number): Generator<StoreRecord> {
  const salt = db.prepare("SELECT value FROM meta WHERE key = 'secret_salt'").get() as { value: string } | undefined;
  if (salt) yield { type: 'secret_salt', salt: salt.value };
  for (const row of db.prepare('SELECT name, sealed FROM secrets ORDER BY name').iterate() as IterableIterator<{ name: string; sealed: string }>) {
    yield { type: 'secret', name: row.name, sealed: row.sealed };
  }
  const kv = db.prepare('SELECT namespace, key, value, expires_at FROM kv WHERE expires_at IS NULL OR expires_at > ? ORDER BY namespace, key');
  for (const row of kv.iterate(now) as IterableIterator<{ namespace: string; key: string; value: string; expires_at: number | null }>) {
    const ttl = row.expires_at === null ? null : remainingMs(row.expires_at, now);
    if (ttl !== undefined) yield { type: 'kv', namespace: row.namespace, key: row.key, value: JSON.parse(row.value) as JsonValue, ttl_ms: ttl };
  }
  for (const row of db.prepare('SELECT key, owner, expires_at FROM claims ORDER BY key').iterate() as IterableIterator<ClaimRow>) {
    const ttl = remainingMs(row.expires_at, now);
    if (ttl !== undefined) yield { type: 'claim', key: row.key, owner: row.owner, ttl_ms: ttl };
  }
  yield* dedupeKeys(db, now);
  for (const row of db.prepare('SELECT * FROM inbox_entries ORDER BY seq').iterate() as IterableIterator<SqlQueueRow>) {
    yield { type: 'inbox', ...queueFieldsOfRow(row) };
  }
  // seq order is line order within each target (a requeued dead letter takes a new seq at the end)
  for (const row of db.prepare("SELECT * FROM queue_entries WHERE queue = 'outbox' ORDER BY seq").iterate() as IterableIterator<SqlQueueRow>) {
    yield { type: 'outbox', id: row.id, target: row.target, ...queueFieldsOfRow(row) };
  }
}

interface ClaimRow {
  key: string;
  owner: string;
  expires_at: number;
}

/** The live dedupe keys of the append-only log (a key remembered again later: its later expiry). */
function* dedupeKeys(db: Database, now: number): Generator<StoreRecord> {
  const live = new Map<string, number>();
  for (const row of db.prepare('SELECT keys, expires_at FROM inbox_dedupe ORDER BY seq').iterate() as IterableIterator<{ keys: string; expires_at: number }>) {
    if (row.expires_at > now) for (const key of JSON.parse(row.keys) as string[]) live.set(key, row.expires_at);
  }
  for (const [key, expiresAt] of live) {
    const ttl = remainingMs(expiresAt, now);
    if (ttl !== undefined) yield { type: 'dedupe', key, ttl_ms: ttl };
  }
}

function writeAll(db: Database, records: readonly StoreRecord[], now: number): void {
  const salt = db.prepare("INSERT INTO meta (key, value) VALUES ('secret_salt', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  for (const record of recordsOfType(records, 'secret_salt')) salt.run(record.salt);
  const secret = db.prepare('INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)');
  for (const record of recordsOfType(records, 'secret')) secret.run(record.name, record.sealed, now);
  const kv = db.prepare('INSERT INTO kv (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)');
  for (const r of recordsOfType(records, 'kv')) kv.run(r.namespace, r.key, JSON.stringify(r.value), r.ttl_ms === null ? null : now + r.ttl_ms);
  const claim = db.prepare('INSERT INTO claims (key, owner, expires_at) VALUES (?, ?, ?)');
  for (const record of recordsOfType(records, 'claim')) claim.run(record.key, record.owner, now + record.ttl_ms);
  // in expiry order, as the log's sweep expects
  const dedupe = db.prepare('INSERT INTO inbox_dedupe (keys, expires_at) VALUES (json_array(?), ?)');
  for (const record of recordsOfType(records, 'dedupe').sort((a, b) => a.ttl_ms - b.ttl_ms)) dedupe.run(record.key, now + record.ttl_ms);
  const inbox = db.prepare(`INSERT INTO inbox_entries (payload, dead, not_before, available_at, attempts, last_error, dead_reason, enqueued_at)
    VALUES (@payload, @dead, @not_before, @not_before, @attempts, @last_error, @dead_reason, @enqueued_at)`);
  for (const record of recordsOfType(records, 'inbox')) inbox.run({ ...record, dead: record.state === 'dead' ? 1 : 0 });
  const outbox =
    db.prepare(`INSERT INTO queue_entries (id, queue, target, payload, dead, not_before, available_at, attempts, last_error, dead_reason, enqueued_at)
    VALUES (@id, 'outbox', @target, @payload, @dead, @not_before, @available_at, @attempts, @last_error, @dead_reason, @enqueued_at)`);
  const entries = recordsOfType(records, 'outbox');
  const heads = lineHeads(entries);
  entries.forEach((record, i) => {
    outbox.run({ ...record, dead: record.state === 'dead' ? 1 : 0, available_at: heads[i] ? record.not_before : BEHIND });
  });
}
