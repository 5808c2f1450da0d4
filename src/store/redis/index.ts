export { openRedisStore } from './redis-store';
export type { RedisStore, RedisStoreOptions } from './redis-store';
export { REDIS_MIGRATIONS, REDIS_SCHEMA_VERSION, migrateRedis } from './migrations';
export { RedisKeys } from './keys';
