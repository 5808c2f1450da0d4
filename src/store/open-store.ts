import { join } from 'node:path';
import type { Clock } from '../clock';
import './builtin-backends';
import type { PostgresStoreConfig } from './postgres/postgres-config';
import type { RedisStoreConfig } from './redis/redis-config';
import type { SqliteStoreConfig } from './sqlite/sqlite-config';
import type { Store } from './store';
import { storeFactoryFor } from './store-backends';

/** A store's config: its backend's `kind` and that backend's settings (any registered backend's). */
export type StoreConfig = SqliteStoreConfig | RedisStoreConfig | PostgresStoreConfig | ({ kind: string } & Record<string, unknown>);

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
 * Opens the configured store and runs its migrations: the backend registered under the config's `kind`
 * (`registerStoreBackend`), its config checked by that backend's schema (a bad field is named).
 *
 * @example
 * const store = process.env.INTRABOT_DATABASE_URL
 *   ? await openStore({ kind: 'postgres', url: process.env.INTRABOT_DATABASE_URL }, { clock, secretKey })
 *   : await openStore({ kind: 'sqlite', path: sqliteStorePath(dataDir) }, { clock, secretKey });
 */
export async function openStore(config: StoreConfig, deps: StoreDeps): Promise<Store> {
  const { factory, config: checked } = storeFactoryFor(config);
  return factory.open(checked, deps);
}
