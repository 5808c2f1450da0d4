import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMigrate } from '../../src/cli/commands/migrate';
import { POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres';
import { SQLITE_SCHEMA_VERSION } from '../../src/store/sqlite/migrations';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';
import { captureIo } from './cli-io';

const pgUrl = postgresTestUrl();

describe('intrabot migrate', () => {
  it('brings the SQLite store under INTRABOT_DATA_DIR to the current schema, creating it, and says there is nothing left the second time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-migrate-'));
    const first = captureIo({ INTRABOT_DATA_DIR: dataDir });
    expect(await runMigrate(['--json'], first)).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ kind: 'sqlite', from: SQLITE_SCHEMA_VERSION, to: SQLITE_SCHEMA_VERSION });
    expect(existsSync(join(dataDir, 'intrabot.db'))).toBe(true);
    const again = captureIo({ INTRABOT_DATA_DIR: dataDir });
    expect(await runMigrate([], again)).toBe(0);
    expect(again.out).toBe(`the sqlite store is at schema version ${SQLITE_SCHEMA_VERSION}: nothing to migrate\n`);
  });

  it('refuses an argument, with its usage, exit 2', async () => {
    const io = captureIo({});
    expect(await runMigrate(['now'], io)).toBe(2);
    expect(io.err).toBe('intrabot migrate: unexpected argument "now"\nUsage: intrabot migrate [--json]\n');
  });
});

describe.skipIf(!pgUrl)('intrabot migrate on PostgreSQL', () => {
  const schema = uniquePostgresSchema('cli_migrate');
  afterAll(() => dropPostgresSchema(pgUrl!, schema));

  it('creates the schema in INTRABOT_DATABASE_SCHEMA and migrates it from version 0, then says there is nothing left', async () => {
    const env = { INTRABOT_DATA_DIR: mkdtempSync(join(tmpdir(), 'intrabot-migrate-')), INTRABOT_DATABASE_URL: pgUrl, INTRABOT_DATABASE_SCHEMA: schema };
    const first = captureIo(env);
    expect(await runMigrate([], first)).toBe(0);
    expect(first.out).toBe(`the postgres store is migrated from schema version 0 to ${POSTGRES_SCHEMA_VERSION}\n`);
    const again = captureIo(env);
    expect(await runMigrate(['--json'], again)).toBe(0);
    expect(JSON.parse(again.out)).toEqual({ kind: 'postgres', from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION });
  });
});
