import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The variable the PostgreSQL tests read: not `INTRABOT_DATABASE_URL`, which CLI processes the tests spawn would inherit beside `INTRABOT_REDIS_URL`. */
export const POSTGRES_TEST_ENV = 'INTRABOT_TEST_DATABASE_URL';

/** Printed when the PostgreSQL store tests are skipped outside CI. */
export const POSTGRES_SKIP_REASON = `skipping the PostgreSQL store tests: set ${POSTGRES_TEST_ENV}=postgres://postgres@127.0.0.1:5432/test to run them`;

/**
 * The PostgreSQL URL for tests, from `INTRABOT_TEST_DATABASE_URL`. Unset outside CI: undefined (the caller
 * skips, and the reason is printed). Unset in CI (`CI=true`): throws, so the suite fails instead of
 * silently skipping the PostgreSQL store. A URL whose server does not answer fails the tests that open a store.
 */
export function postgresTestUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env[POSTGRES_TEST_ENV]?.trim();
  if (url) return url;
  if (env.CI === 'true') {
    throw new Error(`CI=true but ${POSTGRES_TEST_ENV} is unset: the PostgreSQL store tests must run in CI (start PostgreSQL and set ${POSTGRES_TEST_ENV})`);
  }
  console.warn(POSTGRES_SKIP_REASON);
  return undefined;
}

/** A schema no other test (or engineer) uses: a lower-case identifier. */
export function uniquePostgresSchema(label = 'test'): string {
  return `intrabot_test_${label.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(6).toString('hex')}`;
}

/** A pool of its own on the test database, for looking at and changing rows behind the store's back. */
export function rawPostgres(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

/** Drops the schema and everything in it (tests clean up after themselves on a shared server). */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const pool = rawPostgres(url);
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}
