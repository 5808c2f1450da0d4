import { existsSync, mkdirSync } from 'node:fs';
import type { Clock } from '../../clock';
// not the store's index: it exports the Redis store too, and would load ioredis into every start
import { openStore, sqliteStorePath, type StoreConfig } from '../../store/open-store';
import type { Store } from '../../store/store';
import { resolveSecretKey } from '../../store/secret-key';
import type { RuntimeConfig } from '../config/config';

/** The settings the store is opened with; every opener reads exactly these. */
export type RuntimeStoreSettings = Pick<
  RuntimeConfig,
  | 'data_dir'
  | 'redis_url'
  | 'redis'
  | 'redis_prefix'
  | 'redis_min_replicas'
  | 'redis_wait_timeout_ms'
  | 'database_url'
  | 'database_schema'
  | 'database_migrate'
  | 'secret_key'
  | 'mode'
>;

/**
 * The store the configuration asks for: PostgreSQL when `INTRABOT_DATABASE_URL` is set (tables in
 * `INTRABOT_DATABASE_SCHEMA`), Redis when `INTRABOT_REDIS_URL` is (keys under `INTRABOT_REDIS_PREFIX`),
 * else the SQLite file under the data directory. The first two serve several replicas. The secret key comes
 * from `INTRABOT_SECRET_KEY`, or in sandbox mode from a key file created beside the data.
 *
 * The runtime and every CLI command that reads or changes the store open it here, so a command can
 * never look at another deployment's store than the runtime it is run beside.
 */
export async function openRuntimeStore(config: RuntimeStoreSettings, clock: Clock, env: Readonly<Record<string, string | undefined>>): Promise<Store> {
  mkdirSync(config.data_dir, { recursive: true });
  const secretKey = await resolveSecretKey({
    env: { ...env, INTRABOT_SECRET_KEY: config.secret_key ?? env.INTRABOT_SECRET_KEY },
    mode: config.mode,
    dataDir: config.data_dir,
  });
  return openStore(runtimeStoreConfig(config), { clock, secretKey });
}

/** The store config the settings name (see `openRuntimeStore`). */
export function runtimeStoreConfig(config: Omit<RuntimeStoreSettings, 'secret_key' | 'mode'>): StoreConfig {
  if (config.database_url) return { kind: 'postgres', url: config.database_url, schema: config.database_schema, migrate: config.database_migrate };
  if (config.redis_url || config.redis) {
    return {
      kind: 'redis',
      ...(config.redis_url ? { url: config.redis_url } : { servers: config.redis }),
      prefix: config.redis_prefix,
      ...(config.redis_min_replicas === undefined ? {} : { minReplicas: config.redis_min_replicas }),
      ...(config.redis_wait_timeout_ms === undefined ? {} : { waitTimeoutMs: config.redis_wait_timeout_ms }),
    };
  }
  return { kind: 'sqlite', path: sqliteStorePath(config.data_dir) };
}

/**
 * The SQLite file the configuration points at when the runtime never created it, else undefined (it
 * exists, or the store is Redis or PostgreSQL, which are shared and never created by looking). Commands that only
 * look check this first, so looking never leaves an empty store behind.
 */
export function missingRuntimeStore(config: Pick<RuntimeConfig, 'data_dir' | 'redis_url' | 'redis' | 'database_url'>): string | undefined {
  if (config.redis_url || config.redis || config.database_url) return undefined;
  const path = sqliteStorePath(config.data_dir);
  return existsSync(path) ? undefined : path;
}

/**
 * Runs `use` on the runtime's store (opened by `openRuntimeStore`) and closes it; undefined without
 * opening anything where the runtime never ran (`missingRuntimeStore`).
 *
 * @example
 * const entries = (await withRuntimeStore(config, clock, env, (store) => store.outbox.list({ state: 'dead' }))) ?? [];
 */
export async function withRuntimeStore<T>(
  config: RuntimeStoreSettings,
  clock: Clock,
  env: Readonly<Record<string, string | undefined>>,
  use: (store: Store) => Promise<T>,
): Promise<T | undefined> {
  if (missingRuntimeStore(config) !== undefined) return undefined;
  const store = await openRuntimeStore(config, clock, env);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
