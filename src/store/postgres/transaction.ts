import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled back
 * when it throws. A connection that failed mid-way is closed rather than handed to the next caller.
 *
 * @example
 * const n = await inTransaction(pool, async (client) => (await client.query('SELECT 1')).rowCount);
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}
