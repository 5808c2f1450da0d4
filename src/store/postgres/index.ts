export { openPostgresStore, migratePostgresStore } from './postgres-store';
export type { PostgresStore, PostgresStoreOptions } from './postgres-store';
export { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './postgres-migrations';
