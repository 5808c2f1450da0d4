export { openSqliteStore } from './sqlite-store';
export type { SqliteStore, SqliteStoreOptions, SqliteStoreStats } from './sqlite-store';
export { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, migrate, currentVersion } from './migrations';
