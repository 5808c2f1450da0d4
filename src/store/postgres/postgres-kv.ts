import type { Pool } from 'pg';
import type { Clock } from '../../clock';
import type { BackendKv } from '../backend';
import type { JsonValue } from '../json';
import type { KvItem } from '../kv';

const LIVE = '(expires_at IS NULL OR expires_at > $3)';

/** One namespace of the `kv` table; an expired row is invisible to every read (the store's sweeper deletes it later). */
export class PostgresKvSpace implements BackendKv {
  private readonly t: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
    private readonly ns: string,
    private readonly clock: Clock,
  ) {
    this.t = `"${schema}".kv`;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    const { rows } = await this.pool.query<{ value: string }>(`SELECT value FROM ${this.t} WHERE namespace = $1 AND key = $2 AND ${LIVE}`, [
      this.ns,
      key,
      this.clock.now(),
    ]);
    return rows[0] ? (JSON.parse(rows[0].value) as JsonValue) : undefined;
  }

  async set(key: string, json: string, ttlMs: number | undefined): Promise<void> {
    const expiresAt = ttlMs === undefined ? null : this.clock.now() + ttlMs;
    await this.pool.query(
      `INSERT INTO ${this.t} (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [this.ns, key, json, expiresAt],
    );
  }

  /** An expired row is deleted too, but does not count as deleted. */
  async delete(key: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ live: boolean }>(`DELETE FROM ${this.t} WHERE namespace = $1 AND key = $2 RETURNING ${LIVE} AS live`, [
      this.ns,
      key,
      this.clock.now(),
    ]);
    return rows[0]?.live === true;
  }

  async list(prefix: string): Promise<KvItem[]> {
    const { rows } = await this.pool.query<{ key: string; value: string }>(
      `SELECT key, value FROM ${this.t} WHERE namespace = $1 AND starts_with(key, $2) AND ${LIVE} ORDER BY key`,
      [this.ns, prefix, this.clock.now()],
    );
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as JsonValue }));
  }
}
