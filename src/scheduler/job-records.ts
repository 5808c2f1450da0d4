import { randomUUID } from 'node:crypto';
import type { JsonValue, KvSpace, Store } from '../store';
import { RunRecordSchema, type RunRecord } from './run-record';
import { ScheduleEntrySchema, scheduleId, type ScheduleEntry } from './schedule-entry';

/** The kv namespace the scheduler keeps its records in (the CLI reads it too). */
export const SCHEDULER_NAMESPACE = 'scheduler';
/** Runs kept per schedule for `intrabot jobs`. */
export const KEPT_RUNS = 20;

type Identity = Pick<ScheduleEntry, 'tenant' | 'bot' | 'job'>;

function toJson(value: object): JsonValue {
  // kv values are JSON: optional fields left undefined are dropped rather than stored as null
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * What the scheduler remembers in the store, shared by every replica: the schedules (so the CLI can
 * list them without loading bots), the last slot seen per schedule (for catch-up), and the last runs.
 * Run keys carry the run's time in ISO 8601, so listing by key lists by time.
 */
export class JobRecords {
  private readonly kv: KvSpace;

  constructor(store: Pick<Store, 'kv'>) {
    this.kv = store.kv(SCHEDULER_NAMESPACE);
  }

  /**
   * Records the current schedules and forgets those (and their runs) no longer configured, except the
   * schedules of bots `kept` names: a bot that failed to load this time is still configured, and its
   * history must survive the start that could not load it.
   */
  async saveSchedules(entries: readonly ScheduleEntry[], kept: (bot: string) => boolean = () => false): Promise<void> {
    const wanted = new Set(entries.map(scheduleId));
    for (const entry of entries) await this.kv.set(`schedule:${scheduleId(entry)}`, toJson(entry));
    for (const item of await this.kv.list('schedule:')) {
      const id = item.key.slice('schedule:'.length);
      const stored = ScheduleEntrySchema.safeParse(item.value);
      if (wanted.has(id) || (stored.success && kept(stored.data.bot))) continue;
      await this.kv.delete(item.key);
      await this.kv.delete(`seen:${id}`);
      await this.kv.delete(`next:${id}`);
      for (const run of await this.kv.list(`run:${id}:`)) await this.kv.delete(run.key);
    }
  }

  async schedules(): Promise<ScheduleEntry[]> {
    const items = await this.kv.list('schedule:');
    return items.flatMap((item) => {
      const parsed = ScheduleEntrySchema.safeParse(item.value);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The latest instant up to which this schedule's slots were handled by some replica. */
  async seen(entry: Identity): Promise<number | undefined> {
    const value = await this.kv.get(`seen:${scheduleId(entry)}`);
    return typeof value === 'number' ? value : undefined;
  }

  /** Moves "seen" forward, never back (replicas write it concurrently). */
  async markSeen(entry: Identity, atMs: number): Promise<void> {
    const current = await this.seen(entry);
    if (current !== undefined && current >= atMs) return;
    await this.kv.set(`seen:${scheduleId(entry)}`, atMs);
  }

  /** The next slot as the runtime's clock sees it (the CLI runs on the system clock, the sandbox may not). */
  async saveNext(entry: Identity, nextMs: number | undefined): Promise<void> {
    if (nextMs === undefined) await this.kv.delete(`next:${scheduleId(entry)}`);
    else await this.kv.set(`next:${scheduleId(entry)}`, nextMs);
  }

  async next(entry: Identity): Promise<number | undefined> {
    const value = await this.kv.get(`next:${scheduleId(entry)}`);
    return typeof value === 'number' ? value : undefined;
  }

  /**
   * Writes a run (again under the same `key` when it ends) and drops the oldest beyond `KEPT_RUNS`.
   * Returns the key, so the end of a run replaces its start.
   */
  async saveRun(run: RunRecord, key = runKey(run)): Promise<string> {
    await this.kv.set(key, toJson(run));
    const prefix = `run:${scheduleId(run)}:`;
    const items = await this.kv.list(prefix);
    for (const old of items.slice(0, Math.max(0, items.length - KEPT_RUNS))) await this.kv.delete(old.key);
    return key;
  }

  /** The last runs of a schedule, newest first. */
  async runs(entry: Identity): Promise<RunRecord[]> {
    const items = await this.kv.list(`run:${scheduleId(entry)}:`);
    return items.reverse().flatMap((item) => {
      const parsed = RunRecordSchema.safeParse(item.value);
      return parsed.success ? [parsed.data] : [];
    });
  }
}

/** Slot runs are keyed by their slot (one record per slot); manual runs by their start, made unique. */
function runKey(run: RunRecord): string {
  const id = scheduleId(run);
  if (run.trigger === 'manual') {
    return `run:${id}:${new Date(run.started).toISOString()}:manual-${randomUUID().slice(0, 8)}`;
  }
  const kind = run.outcome === 'skipped-late' ? 'late' : 'slot';
  return `run:${id}:${new Date(run.slot).toISOString()}:${kind}`;
}
