import type { RedisClient } from './redis-client';
import { setTimeout as delay } from 'node:timers/promises';
import { newId } from '../queue';
import { newSalt } from '../secret-box';
import { StoreUnavailableError } from '../store-errors';
import type { RedisKeys } from './keys';
import { LuaScript } from './lua-script';

export interface RedisMigration {
  version: number;
  description: string;
  up: (redis: RedisClient, keys: RedisKeys) => Promise<void>;
}

/** Append only, like the SQLite list; the version lives in `<prefix>:schema_version`. */
export const REDIS_MIGRATIONS: readonly RedisMigration[] = [
  {
    version: 1,
    description: 'the key layout of keys.ts; the meta hash with the secret salt',
    up: async (redis, keys) => {
      await redis.hsetnx(keys.meta, 'secret_salt', newSalt().toString('base64'));
    },
  },
];

export const REDIS_SCHEMA_VERSION = REDIS_MIGRATIONS.length;

const UNLOCK = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

export async function redisSchemaVersion(redis: RedisClient, keys: RedisKeys): Promise<number> {
  return Number((await redis.get(keys.schemaVersion)) ?? 0);
}

/**
 * Runs pending migrations under a lock, so replicas starting together migrate once; the others wait for
 * the version to arrive. Refuses a store written by a newer intrabot.
 */
export async function migrateRedis(redis: RedisClient, keys: RedisKeys, migrations = REDIS_MIGRATIONS): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const found = await redisSchemaVersion(redis, keys);
    if (found > REDIS_SCHEMA_VERSION) {
      throw new StoreUnavailableError(`the Redis store "${keys.prefix}" is at schema version ${found}, newer than this intrabot (${REDIS_SCHEMA_VERSION})`);
    }
    if (found >= latest) return found;
    const token = newId();
    if (await redis.set(keys.migrateLock, token, 'PX', 30_000, 'NX')) {
      try {
        return await runPending(redis, keys, migrations);
      } finally {
        await UNLOCK.run(redis, [keys.migrateLock], [token]);
      }
    }
    // another replica is migrating: a start-up wait in real time, not a rule on the injected clock
    await delay(100);
  }
  throw new StoreUnavailableError(`timed out waiting for another process to migrate the Redis store "${keys.prefix}"`);
}

async function runPending(redis: RedisClient, keys: RedisKeys, migrations: readonly RedisMigration[]): Promise<number> {
  let version = await redisSchemaVersion(redis, keys);
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    await migration.up(redis, keys);
    await redis.set(keys.schemaVersion, String(migration.version));
    version = migration.version;
  }
  return version;
}
