import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import { ClaimKeySchema, TtlMsSchema, type Claims } from '../claims';

/** Claims in one row each; the upsert only overwrites an expired claim, so exactly one caller gets `changes === 1`. */
export class SqliteClaims implements Claims {
  private readonly take: Statement;
  private readonly extend: Statement;
  private readonly free: Statement;

  constructor(
    db: Database,
    private readonly owner: string,
    private readonly clock: Clock,
  ) {
    this.take = db.prepare(`INSERT INTO claims (key, owner, expires_at) VALUES (@key, @owner, @until)
      ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE claims.expires_at <= @now`);
    this.extend = db.prepare('UPDATE claims SET expires_at = @until WHERE key = @key AND owner = @owner AND expires_at > @now');
    this.free = db.prepare('DELETE FROM claims WHERE key = @key AND owner = @owner AND expires_at > @now');
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    return this.take.run(this.args(key, ttlMs)).changes === 1;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    return this.extend.run(this.args(key, ttlMs)).changes === 1;
  }

  async release(key: string): Promise<boolean> {
    return this.free.run(this.args(key, 1)).changes === 1;
  }

  private args(key: string, ttlMs: number): { key: string; owner: string; now: number; until: number } {
    parseOrThrow(ClaimKeySchema, key, 'key');
    parseOrThrow(TtlMsSchema, ttlMs, 'ttlMs');
    const now = this.clock.now();
    return { key, owner: this.owner, now, until: now + ttlMs };
  }
}
