import type { RedisClient } from './redis-client';
import { newSalt } from '../secret-box';
import type { SealedSecretStorage } from '../secrets';
import type { RedisKeys } from './keys';

/** Sealed secrets in one hash; the passphrase salt in the meta hash (set once, HSETNX). */
export function redisSecretStorage(redis: RedisClient, keys: RedisKeys): SealedSecretStorage {
  return {
    read: async (name) => (await redis.hget(keys.secrets, name)) ?? undefined,
    write: async (name, sealed) => void (await redis.hset(keys.secrets, name, sealed)),
    writeIfAbsent: async (name, sealed) => {
      await redis.hsetnx(keys.secrets, name, sealed);
      return (await redis.hget(keys.secrets, name)) ?? sealed;
    },
    remove: async (name) => (await redis.hdel(keys.secrets, name)) === 1,
    names: async () => (await redis.hkeys(keys.secrets)).sort(),
    salt: async () => {
      await redis.hsetnx(keys.meta, 'secret_salt', newSalt().toString('base64'));
      return Buffer.from((await redis.hget(keys.meta, 'secret_salt')) ?? '', 'base64');
    },
  };
}
