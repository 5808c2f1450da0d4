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
    corruptPayload: async (queue, id, text) => {
      const db = new Database(path);
      if (queue === 'inbox') db.prepare('UPDATE inbox_entries SET payload = ? WHERE seq = ?').run(text, Number(id));
      else db.prepare('UPDATE queue_entries SET payload = ? WHERE queue = ? AND id = ?').run(text, queue, id);
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
    const committed = reader.prepare("SELECT COUNT(*) AS n FROM inbox_entries WHERE json_extract(payload, '$.deliveryId') = ?");
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
    await Promise.all(
      Array.from({ length: 500 }, (_, i) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `d-${i}`, envelope: { pad: 'x'.repeat(500) } })),
    );
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

  it('migrates the inbox of a version-2 store: entries (dead letters too) and dedupe keys survive', async () => {
    const old = new Database(path);
    migrate(old, SQLITE_MIGRATIONS.slice(0, 2));
    const payload = (id: string): string => JSON.stringify({ tenant: 't', bot: 'b', deliveryId: id, dedupeKey: null, event: 'post.created', envelope: { id } });
    const insert = old.prepare(`INSERT INTO queue_entries (id, queue, target, payload, dead, dead_reason, not_before, available_at, attempts, enqueued_at)
      VALUES (@id, 'inbox', @id, @payload, @dead, @reason, @now, @now, @attempts, @now)`);
    insert.run({ id: 'u-live', payload: payload('d-live'), dead: 0, reason: null, now: START, attempts: 0 });
    insert.run({ id: 'u-dead', payload: payload('d-dead'), dead: 1, reason: 'gave up', now: START, attempts: 3 });
    old
      .prepare(
        "INSERT INTO queue_entries (id, queue, target, payload, not_before, available_at, enqueued_at) VALUES ('o-1', 'outbox', 'wall:1', '{}', ?, ?, ?)",
      )
      .run(START, START, START);
    old.prepare('INSERT INTO dedupe (key, expires_at) VALUES (?, ?)').run(JSON.stringify(['delivery', 't', 'b', 'd-live']), START + 60_000);
    old.close();
    const store = open();
    expect((await store.inbox.list()).map((e) => e.payload.deliveryId)).toEqual(['d-live']);
    expect(await store.inbox.list({ state: 'dead' })).toEqual([expect.objectContaining({ deadReason: 'gave up', attempts: 3 })]);
    expect(await store.outbox.list()).toEqual([expect.objectContaining({ id: 'o-1', target: 'wall:1' })]);
    expect(await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'd-live', envelope: {} })).toEqual({ accepted: false, duplicateOf: 'delivery' });
  });

  it("keeps no dedupe key of a batch that rolled back, so the platform's retry is accepted", async () => {
    const store = open();
    store.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON inbox_entries WHEN json_extract(NEW.payload, '$.deliveryId') = 'd-2' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
    );
    const batch = ['d-1', 'd-2'].map((id) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: id, envelope: {} }));
    for (const result of await Promise.allSettled(batch)) expect(result).toMatchObject({ status: 'rejected', reason: { message: 'disk trouble' } });
    store.db.exec('DROP TRIGGER refuse');
    for (const id of ['d-1', 'd-2']) expect((await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: id, envelope: {} })).accepted).toBe(true);
    expect(await store.inbox.list()).toHaveLength(2);
  });

  it('forgets dedupe keys past their TTL, in memory and on disk, and keeps the live ones', async () => {
    const store = openSqliteStore({ path, clock, dedupeTtlMs: 60_000 });
    stores.push(store);
    await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'old', envelope: {} });
    clock.advance(30_000);
    await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'new', dedupeKey: 'post.created:1', envelope: {} });
    clock.advance(30_000);
    store.sweepInbox();
    expect(store.liveDedupeKeys()).toBe(2);
    expect(
      store.db
        .prepare('SELECT keys FROM inbox_dedupe ORDER BY seq')
        .pluck()
        .all()
        .map((k) => JSON.parse(k as string)),
    ).toEqual([[JSON.stringify(['delivery', 't', 'b', 'new']), JSON.stringify(['key', 't', 'b', 'post.created:1'])]]);
    expect((await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: 'new', envelope: {} })).accepted).toBe(false);
  });

  it('works in memory for unit tests', async () => {
    const store = openSqliteStore({ path: ':memory:', clock });
    stores.push(store);
    await store.kv('x').set('y', 1);
    expect(await store.kv('x').get('y')).toBe(1);
  });
});
