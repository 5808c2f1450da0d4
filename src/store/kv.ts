import { z } from 'zod';
import type { JsonValue } from './json';

export const KvNamespaceSchema = z.string().min(1);
export const KvKeySchema = z.string().min(1);
export const KvSetOptionsSchema = z.object({ ttlMs: z.number().int().positive().optional() }).default({});
export type KvSetOptions = z.input<typeof KvSetOptionsSchema>;

export interface KvItem {
  key: string;
  value: JsonValue;
}

/**
 * A key-value space (one per bot, plus the runtime's own for sync cursors and caches). Values are JSON;
 * a value set with `ttlMs` is gone once that time has passed on the store's clock. Namespaces never see
 * each other's keys.
 *
 * @example
 * const kv = ctx.store.kv('bot:birthday');
 * await kv.set('cursor:users', { since: '2026-01-01' });
 * await kv.set('cache:wall:3', wall, { ttlMs: 3_600_000 });
 */
export interface KvSpace {
  get(key: string): Promise<JsonValue | undefined>;
  set(key: string, value: JsonValue, options?: KvSetOptions): Promise<void>;
  /** True when something was deleted. */
  delete(key: string): Promise<boolean>;
  /** Live items whose key starts with `prefix` (all when empty), sorted by key. */
  list(prefix?: string): Promise<KvItem[]>;
}
