import type { z } from 'zod';
import type { KvSpace } from '../../store/kv';
import type { JsonValue } from '../../store/json';

export interface BoundedHistoryOptions {
  /** How many entries are kept per key (the oldest go first). */
  perKey: number;
  /** How long a key's entries stay after its last append. */
  ttlMs: number;
}

/**
 * A recent history in the store: one value per key (a tenant and bot) holding its last `perKey`
 * entries, for `ttlMs` after the last one; read newest first across keys. Appends are serialised within
 * a process; two replicas appending to one key at the same moment may each keep only their own (a
 * history for people, not a record anything depends on). An entry of another shape (another version
 * wrote it, or it was damaged) is skipped, never a reason for the history to fail.
 */
export class BoundedHistory<T extends { at: number }> {
  private readonly appending = new Map<string, Promise<void>>();

  constructor(
    private readonly kv: KvSpace,
    private readonly schema: z.ZodType<T>,
    private readonly options: BoundedHistoryOptions,
  ) {}

  async append(key: string, entry: T): Promise<void> {
    const previous = this.appending.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.write(key, entry));
    this.appending.set(key, next);
    try {
      await next;
    } finally {
      if (this.appending.get(key) === next) this.appending.delete(key);
    }
  }

  /** The newest first, at most `limit`, across keys. */
  async recent(limit: number): Promise<T[]> {
    const all = (await this.kv.list()).flatMap((item) => this.entriesOf(item.value));
    return all.sort((a, b) => b.at - a.at).slice(0, limit);
  }

  private async write(key: string, entry: T): Promise<void> {
    const kept = this.entriesOf(await this.kv.get(key));
    const next = [...kept.slice(-(this.options.perKey - 1)), entry];
    await this.kv.set(key, next as unknown as JsonValue, { ttlMs: this.options.ttlMs });
  }

  private entriesOf(value: JsonValue | undefined): T[] {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item) => {
      const parsed = this.schema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }
}
