import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config/config';
import { configErrorOf } from '../helpers/config-error';
import { runtimeStoreConfig } from '../../src/runtime/start/open-runtime-store';
import { openStore } from '../../src/store';
import { AdjustableClock } from '../../src/clock';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'intrabot-store-settings-'));
const load = (env: Record<string, string>) => loadConfig({ env, cwd: emptyDir() });

describe('which store the settings choose', () => {
  it('is the SQLite file under the data directory when neither INTRABOT_REDIS_URL nor INTRABOT_DATABASE_URL is set', () => {
    const config = load({});
    expect(runtimeStoreConfig(config)).toEqual({ kind: 'sqlite', path: join(config.data_dir, 'intrabot.db') });
  });

  it('is PostgreSQL in the schema "intrabot" when INTRABOT_DATABASE_URL is set, migrated at open unless database_migrate is false', () => {
    const config = load({ INTRABOT_DATABASE_URL: 'postgres://app@db.internal:5432/intranet' });
    expect(runtimeStoreConfig(config)).toEqual({ kind: 'postgres', url: 'postgres://app@db.internal:5432/intranet', schema: 'intrabot', migrate: true });
    expect(runtimeStoreConfig({ ...config, database_migrate: false })).toMatchObject({ migrate: false });
  });

  it('puts the tables in INTRABOT_DATABASE_SCHEMA, which must be a plain lower-case SQL identifier', () => {
    const config = load({ INTRABOT_DATABASE_URL: 'postgresql://app@db/intranet', INTRABOT_DATABASE_SCHEMA: 'bots_prod' });
    expect(runtimeStoreConfig(config)).toMatchObject({ schema: 'bots_prod' });
    const problem = configErrorOf(() => load({ INTRABOT_DATABASE_URL: 'postgres://app@db/intranet', INTRABOT_DATABASE_SCHEMA: 'Bots"; DROP' }));
    expect(problem.message).toContain('INTRABOT_DATABASE_SCHEMA: expected a lower-case SQL identifier');
  });

  it('refuses an INTRABOT_DATABASE_URL that is not a postgres:// URL, its password masked', () => {
    const problem = configErrorOf(() => load({ INTRABOT_DATABASE_URL: 'mysql://app:hunter2-secret@db/intranet' }));
    expect(problem.message).toContain('INTRABOT_DATABASE_URL: expected a postgres:// or postgresql:// URL');
    expect(problem.message).not.toContain('hunter2');
  });

  it('refuses INTRABOT_REDIS_URL and INTRABOT_DATABASE_URL set together, naming both', () => {
    const problem = configErrorOf(() => load({ INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379', INTRABOT_DATABASE_URL: 'postgres://app@db/intranet' }));
    expect(problem.message).toContain('INTRABOT_REDIS_URL and INTRABOT_DATABASE_URL are both set');
  });
});

describe('openStore', () => {
  it('refuses a store kind no backend is registered for, naming the kinds there are', async () => {
    const opening = openStore({ kind: 'mongodb', url: 'mongodb://x' }, { clock: new AdjustableClock() });
    await expect(opening).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^store\.kind: "mongodb" is not a store backend \(expected one of .*sqlite/),
    });
  });

  it("checks the config with its backend's schema, naming the field", async () => {
    await expect(openStore({ kind: 'sqlite', path: '' }, { clock: new AdjustableClock() })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('store.path'),
    });
  });
});
