import type { Pool } from 'pg';
import type { Clock } from '../../clock';
import type { SealedSecretStorage } from '../secrets';

/** Sealed secrets in the `secrets` table; the passphrase salt in `meta`, written by the first migration. */
export function postgresSecretStorage(pool: Pool, schema: string, clock: Clock): SealedSecretStorage {
  const t = `"${schema}".secrets`;
  const read = async (name: string): Promise<string | undefined> =>
    (await pool.query<{ sealed: string }>(`SELECT sealed FROM ${t} WHERE name = $1`, [name])).rows[0]?.sealed;
  const write = (conflict: string) => `INSERT INTO ${t} (name, sealed, updated_at) VALUES ($1, $2, $3) ON CONFLICT (name) ${conflict}`;
  return {
    read,
    write: async (name, sealed) =>
      void (await pool.query(write('DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at'), [name, sealed, clock.now()])),
    // the read is a statement of its own: it sees the row a concurrent writer committed first
    writeIfAbsent: async (name, sealed) => {
      await pool.query(write('DO NOTHING'), [name, sealed, clock.now()]);
      return (await read(name)) ?? sealed;
    },
    remove: async (name) => ((await pool.query(`DELETE FROM ${t} WHERE name = $1`, [name])).rowCount ?? 0) > 0,
    names: async () => (await pool.query<{ name: string }>(`SELECT name FROM ${t} ORDER BY name`)).rows.map((row) => row.name),
    salt: async () => {
      const { rows } = await pool.query<{ value: string }>(`SELECT value FROM "${schema}".meta WHERE key = 'secret_salt'`);
      return Buffer.from(rows[0]!.value, 'base64');
    },
  };
}
