import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../clock';
import { parseOrThrow } from '../validation';
import { openSqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

export const StoreConfigSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sqlite'), path: z.string().min(1) }),
  z.object({ kind: z.literal('redis'), url: z.string().min(1), prefix: z.string().min(1).default('intrabot') }),
]);
export type StoreConfig = z.input<typeof StoreConfigSchema>;

export interface StoreDeps {
  clock: Clock;
  /** From `resolveSecretKey`; without it the store opens but `secrets` throws `secret_key_missing`. */
  secretKey?: string | undefined;
  /** How long a delivery id is remembered (default 24 h; must outlast the platform's 10-minute retry). */
  dedupeTtlMs?: number;
}

/** The SQLite file under `INTRABOT_DATA_DIR`. */
export function sqliteStorePath(dataDir: string): string {
  return join(dataDir, 'intrabot.db');
}

/**
 * Opens the configured store and runs its migrations.
 *
 * @example
 * const store = process.env.INTRABOT_REDIS_URL
 *   ? await openStore({ kind: 'redis', url: process.env.INTRABOT_REDIS_URL }, { clock, secretKey })
 *   : await openStore({ kind: 'sqlite', path: sqliteStorePath(dataDir) }, { clock, secretKey });
 */
export async function openStore(config: StoreConfig, deps: StoreDeps): Promise<Store> {
  const parsed = parseOrThrow(StoreConfigSchema, config, 'store');
  const common = { clock: deps.clock, secretKey: deps.secretKey, ...(deps.dedupeTtlMs ? { dedupeTtlMs: deps.dedupeTtlMs } : {}) };
  if (parsed.kind === 'sqlite') return openSqliteStore({ path: parsed.path, ...common });
  // loaded on demand: a single-process runtime never pays for the Redis client's memory
  const { openRedisStore } = await import('./redis/redis-store');
  return openRedisStore({ url: parsed.url, prefix: parsed.prefix, ...common });
}
