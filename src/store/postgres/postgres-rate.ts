import type { Pool, PoolClient } from 'pg';
import type { Clock } from '../../clock';
import {
  decideTake,
  effectiveWindow,
  liveStamps,
  missingSpend,
  PLATFORM_LIMIT_TTL_MS,
  phantomStamp,
  spentBy,
  type RateDecision,
  type RateObservation,
  type RateWindow,
  type SharedRateBudget,
} from '../rate-budget';
import { inTransaction } from './transaction';

/**
 * The sliding-window log as a JSON array of grant times per key, read, decided (by the shared rules of
 * rate-budget.ts) and written in one transaction that holds the key's advisory lock, so takes on one key
 * from every replica go one at a time and takes on other keys do not wait. The platform's reported limit
 * sits in the same table under `#limit:<key>`, as `[limit, until]`, as in the SQLite store.
 */
export class PostgresRate implements SharedRateBudget {
  private readonly t: string;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly clock: Clock,
  ) {
    this.t = `"${schema}".rate_log`;
  }

  async take(key: string, requested: RateWindow): Promise<RateDecision> {
    return this.locked(key, async (log, now) => {
      const [limit, until] = (log.get(limitKey(key)) ?? []) as [number?, number?];
      const window = effectiveWindow(requested, limit !== undefined && until !== undefined && until > now ? limit : undefined);
      const stamps = liveStamps(log.get(key) ?? [], window.windowMs, now);
      const { slot, ...decision } = decideTake(stamps, window, now);
      return { result: decision, writes: decision.ok && slot !== undefined ? [[key, [...stamps, slot].sort((a, b) => a - b)]] : [] };
    });
  }

  async observe(key: string, observation: RateObservation): Promise<void> {
    return this.locked(key, async (log, now) => {
      const writes: [string, number[]][] = [];
      if (observation.platformLimit !== undefined) writes.push([limitKey(key), [observation.platformLimit, now + PLATFORM_LIMIT_TTL_MS]]);
      const stamps = liveStamps(log.get(key) ?? [], observation.windowMs, now);
      const missing = missingSpend(observation, spentBy(stamps, now));
      if (missing > 0) writes.push([key, [...stamps, ...Array.from({ length: missing }, () => phantomStamp(now, observation))].sort((a, b) => a - b)]);
      return { result: undefined, writes };
    });
  }

  /** Reads the key's rows under its lock, decides, writes what the decision says, in one transaction. */
  private async locked<T>(key: string, decide: (log: Map<string, number[]>, now: number) => Promise<{ result: T; writes: [string, number[]][] }>): Promise<T> {
    return inTransaction(this.pool, async (client: PoolClient) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`intrabot:rate:${this.schema}:${key}`]);
      const { rows } = await client.query<{ key: string; stamps: string }>(`SELECT key, stamps FROM ${this.t} WHERE key = ANY($1::text[])`, [
        [key, limitKey(key)],
      ]);
      const log = new Map(rows.map((row) => [row.key, JSON.parse(row.stamps) as number[]]));
      const { result, writes } = await decide(log, this.clock.now());
      if (writes.length > 0) {
        await client.query(
          `INSERT INTO ${this.t} (key, stamps) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (key) DO UPDATE SET stamps = excluded.stamps`,
          [writes.map(([k]) => k), writes.map(([, stamps]) => JSON.stringify(stamps))],
        );
      }
      return result;
    });
  }
}

function limitKey(key: string): string {
  return `#limit:${key}`;
}
