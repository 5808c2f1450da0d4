import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMigrate } from '../../src/cli/commands/migrate';
import { SQLITE_SCHEMA_VERSION } from '../../src/store/sqlite/migrations';
import { captureIo } from './cli-io';

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
