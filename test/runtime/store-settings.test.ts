import { mkdtempSync, writeFileSync } from 'node:fs';
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
const loadYaml = (yaml: string, env: Record<string, string> = {}) => {
  const cwd = emptyDir();
  writeFileSync(join(cwd, 'intrabot.yaml'), yaml);
  return loadConfig({ env, cwd });
};

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

describe('the Redis settings: one server, Sentinel, Cluster, and replicas to wait for', () => {
  it('is Redis as before for a redis:// INTRABOT_REDIS_URL: no replicas waited for', () => {
    expect(runtimeStoreConfig(load({ INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379' }))).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379',
      prefix: 'intrabot',
    });
  });

  it('takes a redis+sentinel:// or redis+cluster:// INTRABOT_REDIS_URL, with INTRABOT_REDIS_MIN_REPLICAS and INTRABOT_REDIS_WAIT_TIMEOUT_MS', () => {
    const config = load({
      INTRABOT_REDIS_URL: 'redis+sentinel://:pw@s1:26379,s2:26379/mymaster?db=1',
      INTRABOT_REDIS_MIN_REPLICAS: '1',
      INTRABOT_REDIS_WAIT_TIMEOUT_MS: '250',
    });
    expect(runtimeStoreConfig(config)).toEqual({
      kind: 'redis',
      url: 'redis+sentinel://:pw@s1:26379,s2:26379/mymaster?db=1',
      prefix: 'intrabot',
      minReplicas: 1,
      waitTimeoutMs: 250,
    });
    expect(runtimeStoreConfig(load({ INTRABOT_REDIS_URL: 'redis+cluster://n1:7000,n2:7001' }))).toMatchObject({ url: 'redis+cluster://n1:7000,n2:7001' });
  });

  it('takes the servers as a redis: mapping in intrabot.yaml', () => {
    const config = loadYaml('redis:\n  sentinels: [10.0.0.1:26379, 10.0.0.2:26379]\n  name: mymaster\n  password: s3cret-password\nredis_min_replicas: 1\n');
    expect(runtimeStoreConfig(config)).toMatchObject({
      kind: 'redis',
      servers: {
        sentinels: [
          { host: '10.0.0.1', port: 26379 },
          { host: '10.0.0.2', port: 26379 },
        ],
        name: 'mymaster',
        password: 's3cret-password',
      },
      minReplicas: 1,
    });
  });

  it('names the setting that is wrong, the password masked', () => {
    const url = configErrorOf(() => load({ INTRABOT_REDIS_URL: 'redis+sentinel://:hunter2-secret@s1:26379,s2:26379' }));
    expect(url.message).toContain('INTRABOT_REDIS_URL: the path is the master name the sentinels watch');
    expect(url.message).toContain('redis+sentinel://:***@s1:26379,s2:26379');
    expect(url.message).not.toContain('hunter2');
    const param = configErrorOf(() => load({ INTRABOT_REDIS_URL: 'redis+sentinel://s1/m?sentinel_password=hunter2-secret&db=x' }));
    expect(param.message).toContain('INTRABOT_REDIS_URL: db must be a database number');
    expect(param.message).not.toContain('hunter2');
    const replicas = configErrorOf(() => load({ INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379', INTRABOT_REDIS_MIN_REPLICAS: 'two' }));
    expect(replicas.message).toContain('INTRABOT_REDIS_MIN_REPLICAS: must be a whole number, got "two"');
    const timeout = configErrorOf(() => load({ INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379', INTRABOT_REDIS_WAIT_TIMEOUT_MS: '0' }));
    expect(timeout.message).toContain('INTRABOT_REDIS_WAIT_TIMEOUT_MS');
    const endpoint = configErrorOf(() => loadYaml('redis:\n  sentinels: [s1:26379, "s2:port"]\n  name: m\n  password: hunter2-secret\n'));
    expect(endpoint.message).toContain('intrabot.yaml: redis.sentinels[1]: expected host:port');
    const name = configErrorOf(() => loadYaml('redis:\n  sentinels: [s1:26379]\n  password: hunter2-secret\n'));
    expect(name.message).toContain('intrabot.yaml: redis.name: the master name');
    const password = configErrorOf(() => loadYaml('redis:\n  sentinels: [s1:26379]\n  name: m\n  password: 42\n'));
    expect(password.message).toContain('intrabot.yaml: redis.password');
    for (const error of [endpoint, name, password]) expect(error.message).not.toMatch(/hunter2|42/);
  });

  it('refuses the Redis servers given twice, and replica settings without Redis', () => {
    const twice = configErrorOf(() => loadYaml('redis:\n  cluster: [n1:7000]\n', { INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379' }));
    expect(twice.message).toContain('INTRABOT_REDIS_URL and intrabot.yaml: redis are both set');
    const alone = configErrorOf(() => load({ INTRABOT_REDIS_MIN_REPLICAS: '1' }));
    expect(alone.message).toContain('INTRABOT_REDIS_MIN_REPLICAS is set, but the store is not Redis');
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
