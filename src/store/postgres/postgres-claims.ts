import type { Pool } from 'pg';
import type { Clock } from '../../clock';
import type { BackendClaims } from '../backend';
import { ownerIsGone } from '../claim-owner';

/**
 * Claims in one row each; the upsert only overwrites an expired claim, so exactly one caller gets a row
 * back. Replicas run on several hosts: a lock whose holder ran on this host and is seen to be gone is
 * taken over at once (the update names that holder, so of two takers only one succeeds); any other
 * holder's lock lasts until its TTL.
 */
export class PostgresClaims implements BackendClaims {
  private readonly t: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
    private readonly owner: string,
    private readonly clock: Clock,
  ) {
    this.t = `"${schema}".claims`;
  }

  async claim(key: string, ttlMs: number, options: { lock: boolean }): Promise<boolean> {
    const now = this.clock.now();
    const taken = await this.pool.query(
      `INSERT INTO ${this.t} AS c (key, owner, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE c.expires_at <= $4`,
      [key, this.owner, now + ttlMs, now],
    );
    if (taken.rowCount === 1) return true;
    if (!options.lock) return false;
    const { rows } = await this.pool.query<{ owner: string }>(`SELECT owner FROM ${this.t} WHERE key = $1 AND expires_at > $2`, [key, now]);
    const previous = rows[0]?.owner;
    if (previous === undefined || !ownerIsGone(previous)) return false;
    const over = await this.pool.query(`UPDATE ${this.t} SET owner = $2, expires_at = $3 WHERE key = $1 AND owner = $4`, [
      key,
      this.owner,
      now + ttlMs,
      previous,
    ]);
    return over.rowCount === 1;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const renewed = await this.pool.query(`UPDATE ${this.t} SET expires_at = $3 WHERE key = $1 AND owner = $2 AND expires_at > $4`, [
      key,
      this.owner,
      now + ttlMs,
      now,
    ]);
    return renewed.rowCount === 1;
  }

  async release(key: string): Promise<boolean> {
    const freed = await this.pool.query(`DELETE FROM ${this.t} WHERE key = $1 AND owner = $2 AND expires_at > $3`, [key, this.owner, this.clock.now()]);
    return freed.rowCount === 1;
  }
}
