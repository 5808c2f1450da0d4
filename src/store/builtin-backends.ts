import { DEFAULT_DEDUPE_TTL_MS } from './inbox';
import { PostgresStoreConfigSchema } from './postgres/postgres-config';
import { RedisStoreConfigSchema, redisConnectionOf } from './redis/redis-config';
import { SqliteStoreConfigSchema } from './sqlite/sqlite-config';
import { openSqliteStore } from './sqlite/sqlite-store';
import { registerStoreBackend } from './store-backends';

// the embedded default; the others are loaded when opened, so a single-process runtime never pays for
// a database client's memory
registerStoreBackend({
  kind: 'sqlite',
  configSchema: SqliteStoreConfigSchema,
  open: async (config, deps) =>
    openSqliteStore({ path: config.path, clock: deps.clock, secretKey: deps.secretKey, dedupeTtlMs: deps.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS }),
});

registerStoreBackend({
  kind: 'redis',
  configSchema: RedisStoreConfigSchema,
  open: async (config, deps) => {
    const { openRedisStore } = await import('./redis/redis-store');
    return openRedisStore({
      connection: redisConnectionOf(config),
      prefix: config.prefix,
      minReplicas: config.minReplicas,
      waitTimeoutMs: config.waitTimeoutMs,
      clock: deps.clock,
      secretKey: deps.secretKey,
      dedupeTtlMs: deps.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    });
  },
});

registerStoreBackend({
  kind: 'postgres',
  configSchema: PostgresStoreConfigSchema,
  open: async (config, deps) => {
    const { openPostgresStore } = await import('./postgres/postgres-store');
    return openPostgresStore({
      url: config.url,
      schema: config.schema,
      migrate: config.migrate,
      clock: deps.clock,
      secretKey: deps.secretKey,
      dedupeTtlMs: deps.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    });
  },
  migrate: async (config) => {
    const { migratePostgresStore } = await import('./postgres/postgres-store');
    return migratePostgresStore(config.url, config.schema);
  },
});
