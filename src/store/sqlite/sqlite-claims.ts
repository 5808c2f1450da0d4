import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { BackendClaims } from '../backend';
import { ownerIsGone } from '../claim-owner';

/**
 * Claims in one row each; the upsert only overwrites an expired claim, so exactly one caller gets
 * `changes === 1`. Every process sharing the file runs on this host (WAL needs shared memory), so a lock
 * whose owner's process is gone is taken over at once; the update names that owner, so of two processes
 * taking it over together only one succeeds.
 */
export class SqliteClaims implements BackendClaims {
  private readonly take: Statement;
  private readonly holder: Statement;
  private readonly takeOver: Statement;
  private readonly extend: Statement;
  private readonly free: Statement;

  constructor(
    db: Database,
    private readonly owner: string,
    private readonly clock: Clock,
  ) {
    this.take = db.prepare(`INSERT INTO claims (key, owner, expires_at) VALUES (@key, @owner, @until)
      ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE claims.expires_at <= @now`);
    this.holder = db.prepare('SELECT owner FROM claims WHERE key = @key AND expires_at > @now');
    this.takeOver = db.prepare('UPDATE claims SET owner = @owner, expires_at = @until WHERE key = @key AND owner = @previous');
    this.extend = db.prepare('UPDATE claims SET expires_at = @until WHERE key = @key AND owner = @owner AND expires_at > @now');
    this.free = db.prepare('DELETE FROM claims WHERE key = @key AND owner = @owner AND expires_at > @now');
  }

  async claim(key: string, ttlMs: number, options: { lock: boolean }): Promise<boolean> {
    const args = this.args(key, ttlMs);
    if (this.take.run(args).changes === 1) return true;
    if (!options.lock) return false;
    const previous = (this.holder.get(args) as { owner: string } | undefined)?.owner;
    return previous !== undefined && ownerIsGone(previous) && this.takeOver.run({ ...args, previous }).changes === 1;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    return this.extend.run(this.args(key, ttlMs)).changes === 1;
  }

  async release(key: string): Promise<boolean> {
    return this.free.run(this.args(key, 1)).changes === 1;
  }

  private args(key: string, ttlMs: number): { key: string; owner: string; now: number; until: number } {
    const now = this.clock.now();
    return { key, owner: this.owner, now, until: now + ttlMs };
  }
}
