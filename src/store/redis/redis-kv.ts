import type { RedisClient } from './redis-client';
import type { Clock } from '../../clock';
import type { BackendKv } from '../backend';
import type { JsonValue } from '../json';
import type { KvItem } from '../kv';
import { GC_MARGIN_MS, type RedisKeys } from './keys';

interface Stored {
  v: JsonValue;
  /** Expiry on the store's clock, or null. */
  e: number | null;
}

/**
 * One namespace: a string key per item (JSON `{v, e}`) plus a zset of its keys for prefix listing
 * (ZRANGEBYLEX). Expiry is judged by the injected clock; PEXPIRE only collects garbage.
 */
export class RedisKvSpace implements BackendKv {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly ns: string,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<JsonValue | undefined> {
    const raw = await this.redis.get(this.keys.kv(this.ns, key));
    return this.live(raw)?.v;
  }

  async set(key: string, json: string, ttlMs: number | undefined): Promise<void> {
    // the stored form is `Stored` as JSON, made around the value's text (not parsed and written again)
    const stored = `{"v":${json},"e":${ttlMs === undefined ? 'null' : this.clock.now() + ttlMs}}`;
    const tx = this.redis.multi();
    if (ttlMs === undefined) tx.set(this.keys.kv(this.ns, key), stored);
    else tx.set(this.keys.kv(this.ns, key), stored, 'PX', ttlMs + GC_MARGIN_MS);
    tx.zadd(this.keys.kvIndex(this.ns), 0, key);
    await tx.exec();
  }

  async delete(key: string): Promise<boolean> {
    const full = this.keys.kv(this.ns, key);
    const result = await this.redis.multi().get(full).del(full).zrem(this.keys.kvIndex(this.ns), key).exec();
    return this.live((result?.[0]?.[1] as string | null) ?? null) !== undefined;
  }

  async list(prefix: string): Promise<KvItem[]> {
    const index = this.keys.kvIndex(this.ns);
    // 0xFF never occurs in UTF-8, so "[prefix" .. "[prefix\xFF" spans exactly the keys starting with prefix
    const [min, max] = prefix === '' ? ['-', '+'] : [Buffer.from(`[${prefix}`), Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])])];
    const names = await this.redis.zrangebylex(index, min, max);
    if (names.length === 0) return [];
    const values = await this.redis.mget(names.map((name) => this.keys.kv(this.ns, name)));
    const items: KvItem[] = [];
    const gone: string[] = [];
    names.forEach((name, i) => {
      const stored = this.live(values[i] ?? null);
      if (stored) items.push({ key: name, value: stored.v });
      else if (values[i] === null) gone.push(name);
    });
    // keys whose value Redis already collected leave the index too
    if (gone.length > 0) await this.redis.zrem(index, ...gone);
    return items;
  }

  private live(raw: string | null): Stored | undefined {
    if (raw === null) return undefined;
    const stored = JSON.parse(raw) as Stored;
    return stored.e !== null && stored.e <= this.clock.now() ? undefined : stored;
  }
}
