import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoctorCommand } from '../../src/cli/commands/doctor';
import { freePort } from '../helpers/free-port';
import { dropPostgresSchema, postgresTestUrl, rawPostgres, uniquePostgresSchema } from '../helpers/postgres';
import { captureIo } from './cli-io';

const pgUrl = postgresTestUrl();

describe('intrabot doctor and a store that cannot be opened', () => {
  it('reports the store check as failed with where to look, never the password, and exits 1', async () => {
    const port = await freePort();
    const io = captureIo({
      INTRABOT_DATA_DIR: mkdtempSync(join(tmpdir(), 'intrabot-doctor-store-')),
      INTRABOT_REDIS_URL: `redis://:hunter2-secret@127.0.0.1:${port}`,
    });
    expect(await runDoctorCommand([], io)).toBe(1);
    expect(io.out).toMatch(/^FAIL {2}store: cannot reach Redis at 127\.0\.0\.1:\d+\n {6}fix: check INTRABOT_REDIS_URL and that Redis answers there\n$/);
    expect(io.out + io.err).not.toContain('hunter2');
  });
});

describe.skipIf(!pgUrl)('intrabot doctor and a PostgreSQL store', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropPostgresSchema(pgUrl!, schema);
  });

  it('reports a database that does not answer with where to look, never the password', async () => {
    const port = await freePort();
    const io = captureIo({
      INTRABOT_DATA_DIR: mkdtempSync(join(tmpdir(), 'intrabot-doctor-store-')),
      INTRABOT_DATABASE_URL: `postgres://app:hunter2-secret@127.0.0.1:${port}/intranet`,
    });
    expect(await runDoctorCommand([], io)).toBe(1);
    expect(io.out).toMatch(
      /^FAIL {2}store: cannot reach PostgreSQL at 127\.0\.0\.1:\d+\/intranet\n {6}fix: check INTRABOT_DATABASE_URL, that PostgreSQL answers there, and run intrabot migrate if the schema is behind\n$/,
    );
    expect(io.out + io.err).not.toContain('hunter2');
  });

  it('reports a schema that was never migrated without creating it, naming intrabot migrate', async () => {
    const schema = uniquePostgresSchema('doctor');
    schemas.push(schema);
    const io = captureIo({
      INTRABOT_DATA_DIR: mkdtempSync(join(tmpdir(), 'intrabot-doctor-store-')),
      INTRABOT_DATABASE_URL: pgUrl,
      INTRABOT_DATABASE_SCHEMA: schema,
    });
    expect(await runDoctorCommand([], io)).toBe(1);
    expect(io.out).toContain(`FAIL  store: the PostgreSQL schema "${schema}" is at version 0, behind this intrabot`);
    expect(io.out).toContain('run intrabot migrate');
    const raw = rawPostgres(pgUrl!);
    try {
      expect((await raw.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
    } finally {
      await raw.end();
    }
  });
});
