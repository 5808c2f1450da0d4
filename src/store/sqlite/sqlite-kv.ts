import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { BackendKv } from '../backend';
import type { JsonValue } from '../json';
import type { KvItem } from '../kv';

export interface SqliteKvStatements {
  get: Statement;
  set: Statement;
  remove: Statement;
  list: Statement;
}

export function prepareKv(db: Database): SqliteKvStatements {
  const live = '(expires_at IS NULL OR expires_at > @now)';
  return {
    get: db.prepare(`SELECT value FROM kv WHERE namespace = @ns AND key = @key AND ${live}`),
    set: db.prepare(`INSERT INTO kv (namespace, key, value, expires_at) VALUES (@ns, @key, @value, @expiresAt)
      ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`),
    // an expired row is deleted too, but does not count as deleted
    remove: db.prepare(`DELETE FROM kv WHERE namespace = @ns AND key = @key RETURNING ${live} AS live`),
    list: db.prepare(`SELECT key, value FROM kv WHERE namespace = @ns AND substr(key, 1, length(@prefix)) = @prefix
      AND ${live} ORDER BY key`),
  };
}

/** One namespace of the `kv` table; expiry is checked against the injected clock on every read. */
export class SqliteKvSpace implements BackendKv {
  constructor(
    private readonly sql: SqliteKvStatements,
    private readonly ns: string,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<JsonValue | undefined> {
    const row = this.sql.get.get({ ns: this.ns, key, now: this.clock.now() }) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as JsonValue) : undefined;
  }

  async set(key: string, json: string, ttlMs: number | undefined): Promise<void> {
    const expiresAt = ttlMs === undefined ? null : this.clock.now() + ttlMs;
    this.sql.set.run({ ns: this.ns, key, value: json, expiresAt });
  }

  async delete(key: string): Promise<boolean> {
    const row = this.sql.remove.get({ ns: this.ns, key, now: this.clock.now() }) as { live: number } | undefined;
    return row?.live === 1;
  }

  async list(prefix: string): Promise<KvItem[]> {
    const rows = this.sql.list.all({ ns: this.ns, prefix, now: this.clock.now() }) as { key: string; value: string }[];
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as JsonValue }));
  }
}
