import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { StoreUnavailableError, type Store } from '../../src/store';
import { guardStore } from '../../src/store/guard-store';
import type { SqliteStore } from '../../src/store/sqlite';
import { sqliteOutage } from '../helpers/store-outage';
import { tempStore } from '../helpers/temp-store';

describe('guardStore', () => {
  let raw: Store & { dir: string };
  let outage: ReturnType<typeof sqliteOutage<Store & { dir: string }>>;
  let store: Store & { dir: string };

  beforeEach(async () => {
    raw = await tempStore(new AdjustableClock({ frozen: true }));
    outage = sqliteOutage(raw);
    store = guardStore(outage.store);
  });
  afterEach(async () => raw.close());

  it('turns a backend failure of any operation into store_unavailable, keeping the driver error as the cause only', async () => {
    outage.down = true;
    const failures = [
      store.inbox.list(),
      store.outbox.reserve(1_000),
      store.claims.claim('k', 1_000),
      store.secrets.get('s'),
      store.provisioning.list('t'),
      store.kv('bot:x').get('k'),
      store.ping(),
    ];
    for (const failure of failures) {
      const error = await failure.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ code: 'store_unavailable', status: 503, message: 'the store is unavailable; try again shortly' });
      expect((error as Error).cause).toBeInstanceOf(Database.SqliteError);
    }
  });

  it('keeps the errors intrabot raises on purpose (bad input names its field)', async () => {
    await expect(store.kv('bot:x').set('', 1)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: '', envelope: {} })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('works as the store it guards, and lets its own members through', async () => {
    await store.kv('bot:x').set('k', { n: 1 });
    expect(await store.kv('bot:x').get('k')).toEqual({ n: 1 });
    expect(store.kind).toBe('sqlite');
    expect((store as unknown as SqliteStore).db).toBe((raw as unknown as SqliteStore).db);
    expect(store.dir).toBe(raw.dir);
    expect(store.inbox).toBe(store.inbox);
    expect(guardStore(store)).toBe(store);
  });
});
