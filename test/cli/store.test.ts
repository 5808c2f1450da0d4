import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStore } from '../../src/cli/commands/store';
import { createSystemClock } from '../../src/clock';
import { openStore, sqliteStorePath, type Store } from '../../src/store';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';
import { captureIo } from './cli-io';

const KEY = 'the passphrase both stores run with';
const pgUrl = postgresTestUrl();

const dataDir = (): string => mkdtempSync(join(tmpdir(), 'intrabot-store-cli-'));
const envOf = (dir: string, extra: Record<string, string> = {}) => ({
  INTRABOT_DATA_DIR: dir,
  INTRABOT_SECRET_KEY: KEY,
  INTRABOT_LOG_LEVEL: 'silent',
  ...extra,
});
const openSqlite = (dir: string, secretKey = KEY): Promise<Store> =>
  openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock: createSystemClock(), secretKey });

/** A SQLite store under a data directory, with a delivery waiting, a kv item and a secret; and its export in a file. */
async function exported(): Promise<{ dir: string; file: string }> {
  const dir = dataDir();
  const store = await openSqlite(dir);
  await store.inbox.accept({ tenant: 'default', bot: 'kudos', deliveryId: 'd-1', envelope: { id: 'd-1' } });
  await store.kv('bot:kudos').set('cursor', 7);
  await store.secrets.put('webhook:default:kudos', 'the signing secret');
  await store.close();
  const file = join(dir, 'store.jsonl');
  const io = captureIo(envOf(dir));
  expect(await runStore(['export', '--out', file], io)).toBe(0);
  expect(io.err).toMatch(/^exported \d+ records from the sqlite store to /);
  return { dir, file };
}

/** What a store holds besides its salt, as record types. */
async function held(store: Store): Promise<string[]> {
  const types: string[] = [];
  for await (const item of store.transfer!.export()) if (item.type !== 'intrabot-store' && item.type !== 'secret_salt') types.push(item.type);
  await store.close();
  return types;
}

describe('intrabot store export / import', () => {
  it('exports JSON lines that start with the versioned header, and imports them into an empty store with the same key', async () => {
    const { file } = await exported();
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(header).toMatchObject({ type: 'intrabot-store', version: 1, from: 'sqlite', schema: expect.any(Number), exported_at: expect.any(Number) });
    expect(readFileSync(file, 'utf8')).not.toContain('the signing secret');
    const target = dataDir();
    const io = captureIo(envOf(target));
    expect(await runStore(['import', '--in', file], io)).toBe(0);
    expect(io.out).toMatch(/^imported .*1 secret.*1 inbox.* from a sqlite store into the sqlite store\n$/);
    const store = await openSqlite(target);
    expect(await store.secrets.get('webhook:default:kudos')).toBe('the signing secret');
    expect((await store.inbox.reserve(30_000))?.payload).toMatchObject({ deliveryId: 'd-1' });
    expect(await store.kv('bot:kudos').get('cursor')).toBe(7);
    await store.close();
  });

  it('refuses a bad line naming its number and field, and writes nothing', async () => {
    const { file } = await exported();
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('"type":"inbox"'));
    lines[at] = lines[at]!.replace(/"attempts":\d+/, '"attempts":"many"');
    writeFileSync(file, lines.join('\n'));
    const target = dataDir();
    const io = captureIo(envOf(target));
    expect(await runStore(['import', '--in', file], io)).toBe(1);
    expect(io.err).toMatch(new RegExp(`^intrabot store import: line ${at + 1}: attempts: .*\\(in the inbox record\\)\\n$`));
    expect(await held(await openSqlite(target))).toEqual([]);
  });

  it('refuses a target that holds data already, and leaves it as it was', async () => {
    const { file } = await exported();
    const target = dataDir();
    const before = await openSqlite(target);
    await before.kv('bot:other').set('mine', true);
    await before.close();
    const io = captureIo(envOf(target));
    expect(await runStore(['import', '--in', file], io)).toBe(1);
    expect(io.err).toBe(
      'intrabot store import: the target sqlite store is not empty (it holds kv records): import into a new, empty store (nothing was written)\n',
    );
    expect(await held(await openSqlite(target))).toEqual(['kv']);
  });

  it('refuses an import whose secrets the configured key does not open, naming the key and the secret, and writes nothing', async () => {
    const { file } = await exported();
    const target = dataDir();
    const io = captureIo(envOf(target, { INTRABOT_SECRET_KEY: 'another passphrase' }));
    expect(await runStore(['import', '--in', file], io)).toBe(1);
    expect(io.err).toBe(
      'intrabot store import: the configured INTRABOT_SECRET_KEY does not open the exported secret "webhook:default:kudos": import with the key the source store ran with (nothing was written)\n',
    );
    expect(await held(await openSqlite(target, 'another passphrase'))).toEqual([]);
  });

  it('refuses to export a store that was never created, creating nothing', async () => {
    const dir = dataDir();
    const io = captureIo(envOf(dir));
    expect(await runStore(['export'], io)).toBe(1);
    expect(io.err).toMatch(/^intrabot store export: there is no store to export: .*intrabot\.db does not exist\n$/);
    expect(existsSync(sqliteStorePath(dir))).toBe(false);
  });

  it('refuses a missing or unknown action and a flag of the other action, with its usage, exit 2', async () => {
    for (const [argv, problem] of [
      [[], 'say export or import'],
      [['move'], 'unknown action "move" (export or import)'],
      [['export', '--in', 'x'], '--in is for import'],
    ] as const) {
      const io = captureIo({});
      expect(await runStore([...argv], io)).toBe(2);
      expect(io.err).toBe(`intrabot store: ${problem}\nUsage: intrabot store export [--out FILE] | store import [--in FILE]\n`);
    }
  });
});

describe.skipIf(!pgUrl)('intrabot store import into PostgreSQL', () => {
  const schema = uniquePostgresSchema('cli_store');
  afterAll(() => dropPostgresSchema(pgUrl!, schema));

  it('moves a SQLite store into the PostgreSQL schema the config names', async () => {
    const { file } = await exported();
    const env = envOf(dataDir(), { INTRABOT_DATABASE_URL: pgUrl!, INTRABOT_DATABASE_SCHEMA: schema });
    const io = captureIo(env);
    expect(await runStore(['import', '--in', file], io)).toBe(0);
    expect(io.out).toMatch(/from a sqlite store into the postgres store\n$/);
    const store = await openStore({ kind: 'postgres', url: pgUrl!, schema }, { clock: createSystemClock(), secretKey: KEY });
    expect(await store.secrets.get('webhook:default:kudos')).toBe('the signing secret');
    expect((await store.inbox.reserve(30_000))?.payload).toMatchObject({ deliveryId: 'd-1' });
    await store.close();
  });
});
