import type { Pool, PoolClient } from 'pg';
import type { Clock } from '../../clock';
import type { StoreBackend } from '../backend';
import type { JsonValue } from '../json';
import { newEntryId } from '../queue';
import { queueFieldsOfRow } from '../queue-records';
import type { SqlQueueRow } from '../queue-row';
import { recordsOfType, remainingMs, type StoreRecord } from '../store-records';
import { inTransaction } from './transaction';

type Transfer = Required<Pick<StoreBackend, 'dump' | 'restore'>>;

/**
 * The PostgreSQL store's dump and restore. The dump reads in one REPEATABLE READ transaction: one
 * snapshot of every table, whatever replicas write meanwhile. The restore is one transaction.
 */
export function postgresTransfer(pool: Pool, schema: string, clock: Clock): Transfer {
  const s = `"${schema}"`;
  return {
    async *dump() {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        yield* readAll(client, s, clock.now());
        await client.query('COMMIT');
      } catch (error) {
        broken = true;
        throw error;
      } finally {
        // a dump left early (its reader stopped) ends its transaction here
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        client.release(broken);
      }
    },
    async restore(records) {
      await inTransaction(pool, (client) => writeAll(client, s, records, clock.now()));
    },
  };
}

async function* readAll(client: PoolClient, s: string, now: number): AsyncGenerator<StoreRecord> {
  const rows = async <R extends object>(sql: string, args: unknown[] = []): Promise<R[]> => (await client.query<R>(sql, args)).rows;
  for (const row of await rows<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'secret_salt'`)) yield { type: 'secret_salt', salt: row.value };
  for (const row of await rows<{ name: string; sealed: string }>(`SELECT name, sealed FROM ${s}.secrets ORDER BY name`)) {
    yield { type: 'secret', name: row.name, sealed: row.sealed };
  }
  const kv = await rows<{ namespace: string; key: string; value: string; expires_at: number | null }>(
    `SELECT namespace, key, value, expires_at FROM ${s}.kv WHERE expires_at IS NULL OR expires_at > $1 ORDER BY namespace, key`,
    [now],
  );
  for (const row of kv) {
    const ttl = row.expires_at === null ? null : remainingMs(row.expires_at, now);
    if (ttl !== undefined) yield { type: 'kv', namespace: row.namespace, key: row.key, value: JSON.parse(row.value) as JsonValue, ttl_ms: ttl };
  }
  for (const row of await rows<{ key: string; owner: string; expires_at: number }>(
    `SELECT key, owner, expires_at FROM ${s}.claims WHERE expires_at > $1 ORDER BY key`,
    [now],
  )) {
    const ttl = remainingMs(row.expires_at, now);
    if (ttl !== undefined) yield { type: 'claim', key: row.key, owner: row.owner, ttl_ms: ttl };
  }
  for (const row of await rows<{ key: string; expires_at: number }>(`SELECT key, expires_at FROM ${s}.dedupe WHERE expires_at > $1 ORDER BY expires_at`, [
    now,
  ])) {
    const ttl = remainingMs(row.expires_at, now);
    if (ttl !== undefined) yield { type: 'dedupe', key: row.key, ttl_ms: ttl };
  }
  for (const row of await rows<SqlQueueRow>(`SELECT * FROM ${s}.inbox ORDER BY seq`)) yield { type: 'inbox', ...queueFieldsOfRow(row) };
  // seq order is line order within each target (a requeued or set-aside entry takes a new seq at its line's end)
  for (const row of await rows<SqlQueueRow>(`SELECT * FROM ${s}.outbox ORDER BY seq`)) {
    yield { type: 'outbox', id: row.id, target: row.target, ...queueFieldsOfRow(row) };
  }
}

async function writeAll(client: PoolClient, s: string, records: readonly StoreRecord[], now: number): Promise<void> {
  const run = async (sql: string, args: unknown[]): Promise<void> => void (await client.query(sql, args));
  for (const r of recordsOfType(records, 'secret_salt')) await run(`UPDATE ${s}.meta SET value = $1 WHERE key = 'secret_salt'`, [r.salt]);
  for (const r of recordsOfType(records, 'secret'))
    await run(`INSERT INTO ${s}.secrets (name, sealed, updated_at) VALUES ($1, $2, $3)`, [r.name, r.sealed, now]);
  for (const r of recordsOfType(records, 'kv')) {
    await run(`INSERT INTO ${s}.kv (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4)`, [
      r.namespace,
      r.key,
      JSON.stringify(r.value),
      r.ttl_ms === null ? null : now + r.ttl_ms,
    ]);
  }
  for (const r of recordsOfType(records, 'claim'))
    await run(`INSERT INTO ${s}.claims (key, owner, expires_at) VALUES ($1, $2, $3)`, [r.key, r.owner, now + r.ttl_ms]);
  for (const r of recordsOfType(records, 'dedupe')) await run(`INSERT INTO ${s}.dedupe (key, expires_at) VALUES ($1, $2)`, [r.key, now + r.ttl_ms]);
  // one row at a time, in file order: each takes the next seq, so lines keep their order
  const insert = (
    table: string,
  ): string => `INSERT INTO ${s}.${table} (id, target, payload, dead, not_before, available_at, attempts, last_error, dead_reason, enqueued_at)
    VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9)`;
  for (const r of recordsOfType(records, 'inbox')) {
    const id = newEntryId(now);
    await run(insert('inbox'), [id, id, r.payload, r.state === 'dead', r.not_before, r.attempts, r.last_error, r.dead_reason, r.enqueued_at]);
  }
  for (const r of recordsOfType(records, 'outbox')) {
    await run(insert('outbox'), [r.id, r.target, r.payload, r.state === 'dead', r.not_before, r.attempts, r.last_error, r.dead_reason, r.enqueued_at]);
  }
}
