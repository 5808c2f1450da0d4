import type { Database } from 'better-sqlite3';
import type { Clock } from '../../clock';
import {
  decideTake,
  effectiveWindow,
  liveStamps,
  missingSpend,
  PLATFORM_LIMIT_TTL_MS,
  spentBy,
  phantomStamp,
  type SharedRateBudget,
  type RateDecision,
  type RateObservation,
  type RateWindow,
} from '../rate-budget';

/**
 * The sliding-window log as a JSON array of grant times per key, read, decided and written in one IMMEDIATE
 * transaction. The platform's reported limit of a key sits in the same table under `#limit:<key>`, as
 * `[limit, until]` (no schema change for one number).
 */
export class SqliteRate implements SharedRateBudget {
  private readonly takeTx: (key: string, window: RateWindow, now: number) => RateDecision;
  private readonly observeTx: (key: string, observation: RateObservation, now: number) => void;

  constructor(
    db: Database,
    private readonly clock: Clock,
  ) {
    const read = db.prepare('SELECT stamps FROM rate_log WHERE key = ?');
    const write = db.prepare('INSERT INTO rate_log (key, stamps) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET stamps = excluded.stamps');
    const live = (key: string, windowMs: number, now: number): number[] => {
      const row = read.get(key) as { stamps: string } | undefined;
      const stamps: number[] = row ? JSON.parse(row.stamps) : [];
      return liveStamps(stamps, windowMs, now);
    };
    const platformLimit = (key: string, now: number): number | undefined => {
      const row = read.get(limitKey(key)) as { stamps: string } | undefined;
      const [limit, until] = row ? (JSON.parse(row.stamps) as [number, number]) : [];
      return limit !== undefined && until !== undefined && until > now ? limit : undefined;
    };
    this.takeTx = db.transaction((key: string, requested: RateWindow, now: number): RateDecision => {
      const window = effectiveWindow(requested, platformLimit(key, now));
      const stamps = live(key, window.windowMs, now);
      const { slot, ...decision } = decideTake(stamps, window, now);
      if (!decision.ok || slot === undefined) return decision;
      write.run(key, JSON.stringify([...stamps, slot].sort((a, b) => a - b)));
      return decision;
    }).immediate;
    this.observeTx = db.transaction((key: string, observation: RateObservation, now: number): void => {
      if (observation.platformLimit !== undefined) write.run(limitKey(key), JSON.stringify([observation.platformLimit, now + PLATFORM_LIMIT_TTL_MS]));
      const stamps = live(key, observation.windowMs, now);
      const missing = missingSpend(observation, spentBy(stamps, now));
      if (missing === 0) return;
      const at = phantomStamp(now, observation);
      const merged = [...stamps, ...Array.from({ length: missing }, () => at)].sort((a, b) => a - b);
      write.run(key, JSON.stringify(merged));
    }).immediate;
  }

  async take(key: string, window: RateWindow): Promise<RateDecision> {
    return this.takeTx(key, window, this.clock.now());
  }

  async observe(key: string, observation: RateObservation): Promise<void> {
    this.observeTx(key, observation, this.clock.now());
  }
}

function limitKey(key: string): string {
  return `#limit:${key}`;
}
