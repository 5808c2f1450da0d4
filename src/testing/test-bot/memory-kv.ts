import type { Clock } from '../../clock';
import type { JsonValue } from '../../store/json';
import type { KvItem, KvSetOptions, KvSpace } from '../../store/kv';

/**
 * A key-value space in memory, for `testBot`'s `ctx.store`: values are copied as JSON (as the real stores
 * keep them, so a handler that mutates what it stored changes nothing), and a value set with `ttlMs` is
 * gone once the given clock has passed that time.
 */
export class MemoryKv implements KvSpace {
  private readonly items = new Map<string, { json: string; expiresAt: number | undefined }>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  async get(key: string): Promise<JsonValue | undefined> {
    const item = this.live(key);
    return item === undefined ? undefined : (JSON.parse(item.json) as JsonValue);
  }

  async set(key: string, value: JsonValue, options: KvSetOptions = {}): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`store.set("${key}"): the value is not JSON`);
    this.items.set(key, { json, expiresAt: options.ttlMs === undefined ? undefined : this.clock.now() + options.ttlMs });
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.live(key) !== undefined;
    this.items.delete(key);
    return existed;
  }

  async list(prefix = ''): Promise<KvItem[]> {
    const keys = [...this.items.keys()].filter((key) => key.startsWith(prefix) && this.live(key) !== undefined).sort();
    return keys.map((key) => ({ key, value: JSON.parse(this.items.get(key)!.json) as JsonValue }));
  }

  private live(key: string): { json: string; expiresAt: number | undefined } | undefined {
    const item = this.items.get(key);
    if (item?.expiresAt !== undefined && item.expiresAt <= this.clock.now()) {
      this.items.delete(key);
      return undefined;
    }
    return item;
  }
}
