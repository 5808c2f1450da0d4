import type { Database } from 'better-sqlite3';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import {
  RateKeySchema,
  RateObservationSchema,
  RateWindowSchema,
  missingSpend,
  phantomStamp,
  type SharedRateBudget,
  type RateDecision,
  type RateObservation,
  type RateWindow,
} from '../rate-budget';

/** The sliding-window log as a JSON array of grant times per key, read and written in one IMMEDIATE transaction. */
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
      return stamps.filter((s) => s > now - windowMs);
    };
    this.takeTx = db.transaction((key: string, window: RateWindow, now: number): RateDecision => {
      const stamps = live(key, window.windowMs, now);
      if (stamps.length >= window.limit) {
        const oldest = stamps[stamps.length - window.limit] ?? now;
        return { ok: false, waitMs: Math.max(1, oldest + window.windowMs - now) };
      }
      stamps.push(now);
      write.run(key, JSON.stringify(stamps));
      return { ok: true, waitMs: 0 };
    }).immediate;
    this.observeTx = db.transaction((key: string, observation: RateObservation, now: number): void => {
      const stamps = live(key, observation.windowMs, now);
      const missing = missingSpend(observation, stamps.length);
      if (missing === 0) return;
      const at = phantomStamp(now, observation);
      const merged = [...stamps, ...Array.from({ length: missing }, () => at)].sort((a, b) => a - b);
      write.run(key, JSON.stringify(merged));
    }).immediate;
  }

  async take(key: string, window: RateWindow): Promise<RateDecision> {
    return this.takeTx(parseOrThrow(RateKeySchema, key, 'key'), parseOrThrow(RateWindowSchema, window, 'window'), this.clock.now());
  }

  async observe(key: string, observation: RateObservation): Promise<void> {
    this.observeTx(parseOrThrow(RateKeySchema, key, 'key'), parseOrThrow(RateObservationSchema, observation, 'observation'), this.clock.now());
  }
}
