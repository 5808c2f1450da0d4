import { mkdirSync } from 'node:fs';
import type { Clock } from '../clock';
import { openStore, sqliteStorePath, type Store } from '../store';
import { resolveSecretKey } from '../store/secret-key';
import type { RuntimeConfig } from './config';

/**
 * The store the configuration asks for: Redis when `INTRABOT_REDIS_URL` is set (several replicas),
 * else the SQLite file under the data directory. The secret key comes from `INTRABOT_SECRET_KEY`, or in
 * sandbox mode from a key file created beside the data.
 */
export async function openRuntimeStore(config: RuntimeConfig, clock: Clock, env: Readonly<Record<string, string | undefined>>): Promise<Store> {
  mkdirSync(config.data_dir, { recursive: true });
  const secretKey = await resolveSecretKey({
    env: { ...env, INTRABOT_SECRET_KEY: config.secret_key ?? env.INTRABOT_SECRET_KEY },
    mode: config.mode,
    dataDir: config.data_dir,
  });
  if (config.redis_url) return openStore({ kind: 'redis', url: config.redis_url, prefix: config.redis_prefix }, { clock, secretKey });
  return openStore({ kind: 'sqlite', path: sqliteStorePath(config.data_dir) }, { clock, secretKey });
}
