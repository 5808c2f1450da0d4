import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore } from '../../src/store';
import { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, migrate, openSqliteStore, type SqliteStore } from '../../src/store/sqlite';
import { CONTRACT_KEY, storeContract } from './contract';

const START = Date.UTC(2026, 10, 22, 9, 0, 0);

storeContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'intrabot-store-'));
  const path = join(dir, 'intrabot.db');
  const clock = new AdjustableClock({ start: START, frozen: true });
  return {
    clock,
    open: ({ secretKey } = {}) => openStore({ kind: 'sqlite', path }, { clock, secretKey }),
    rawSecrets: async () => {
      const db = new Database(path, { readonly: true });
      try {
        return JSON.stringify(db.prepare('SELECT * FROM secrets').all());
      } finally {
        db.close();
      }
    },
    forceSchemaVersion: async (version) => {
      const db = new Database(path);
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(version);
      db.close();
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('sqlite store', () => {
  let dir: string;
  let path: string;
  const clock = new AdjustableClock({ start: START, frozen: true });
  const stores: SqliteStore[] = [];
  const open = (): SqliteStore => {
    const store = openSqliteStore({ path, clock, secretKey: CONTRACT_KEY });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-sqlite-'));
    path = join(dir, 'intrabot.db');
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('commits concurrent accepts in few transactions and resolves each caller only after its commit', async () => {
    const store = open();
    const reader = new Database(path, { readonly: true });
    const committed = reader.prepare("SELECT COUNT(*) AS n FROM queue_entries WHERE queue = 'inbox' AND json_extract(payload, '$.deliveryId') = ?");
    const seenAtResolve = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.inbox
          .accept({ tenant: 't1', bot: 'kudos', deliveryId: `d-${i}`, envelope: { id: `d-${i}` } })
          // another connection sees only committed rows
          .then(() => (committed.get(`d-${i}`) as { n: number }).n),
      ),
    );
    reader.close();
    expect(seenAtResolve).toEqual(Array.from({ length: 200 }, () => 1));
    expect(store.stats.inboxAccepts).toBe(200);
    expect(store.stats.inboxBatches).toBeLessThanOrEqual(3);
  });

  it('flushes accepts still waiting for their batch when closed', async () => {
    const store = open();
    const pending = store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-close', envelope: {} });
    await store.close();
    expect((await pending).accepted).toBe(true);
    const reopened = open();
    expect(await reopened.inbox.list()).toHaveLength(1);
  });

  it('runs in WAL mode with synchronous NORMAL by default', () => {
    const store = open();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('checkpoints the WAL from a worker thread, so commits on the event loop never do', async () => {
    const store = openSqliteStore({ path, clock, checkpointIntervalMs: 20 });
    stores.push(store);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(path).size;
    await Promise.all(Array.from({ length: 500 }, (_, i) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `d-${i}`, envelope: { pad: 'x'.repeat(500) } })));
    // the pages reach the database file only through a checkpoint, and only the worker takes them
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 100_000), { timeout: 5_000, interval: 20 });
    await store.close();
    expect(await open().inbox.list({ limit: 1_000 })).toHaveLength(500);
  });

  it('migrates a store written at version 1 and keeps its data', async () => {
    const old = new Database(path);
    expect(migrate(old, SQLITE_MIGRATIONS.slice(0, 1))).toBe(1);
    old.prepare("INSERT INTO kv (namespace, key, value) VALUES ('bot:a', 'cursor', '\"2026-01-01\"')").run();
    old.close();
    const store = open();
    expect(await store.schemaVersion()).toBe(SQLITE_SCHEMA_VERSION);
    expect(SQLITE_SCHEMA_VERSION).toBeGreaterThan(1);
    expect(await store.kv('bot:a').get('cursor')).toBe('2026-01-01');
    expect((await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'd', envelope: {} })).accepted).toBe(true);
  });

  it('works in memory for unit tests', async () => {
    const store = openSqliteStore({ path: ':memory:', clock });
    stores.push(store);
    await store.kv('x').set('y', 1);
    expect(await store.kv('x').get('y')).toBe(1);
  });
});
