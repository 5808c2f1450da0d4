import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { migrateStore, openStore, type Store } from '../../src/store';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION, type PostgresStore } from '../../src/store/postgres';
import { dropPostgresSchema, postgresTestUrl, rawPostgres, uniquePostgresSchema } from '../helpers/postgres';
import { CONTRACT_KEY, storeContract } from './contract';

const url = postgresTestUrl();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

storeContract(
  'postgres',
  async () => {
    const schema = uniquePostgresSchema('contract');
    const clock = new AdjustableClock({ start: START, frozen: true });
    const raw = rawPostgres(url!);
    return {
      clock,
      open: ({ secretKey } = {}) => openStore({ kind: 'postgres', url: url!, schema }, { clock, secretKey }),
      rawSecrets: async () => JSON.stringify((await raw.query(`SELECT * FROM "${schema}".secrets`)).rows),
      forceSchemaVersion: async (version) =>
        void (await raw.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES ($1, 'forced by a test')`, [version])),
      corruptPayload: async (queue, id, text) => void (await raw.query(`UPDATE "${schema}".${queue} SET payload = $2 WHERE id = $1`, [id, text])),
      cleanup: async () => {
        await raw.end();
        await dropPostgresSchema(url!, schema);
      },
    };
  },
  { skip: !url },
);

describe.skipIf(!url)('postgres store', () => {
  const schema = uniquePostgresSchema('misc');
  const clock = new AdjustableClock({ start: START, frozen: true });
  const opened: Store[] = [];
  const schemas = [schema];
  const open = async (options: { schema?: string; migrate?: boolean } = {}): Promise<PostgresStore> => {
    const store = (await openStore({ kind: 'postgres', url: url!, schema, ...options }, { clock, secretKey: CONTRACT_KEY })) as PostgresStore;
    opened.push(store);
    return store;
  };
  const freshSchema = (label: string): string => {
    const name = uniquePostgresSchema(label);
    schemas.push(name);
    return name;
  };
  let store: PostgresStore;

  beforeAll(async () => {
    store = await open();
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    for (const name of schemas) await dropPostgresSchema(url!, name);
  });

  it('keeps every table in its own schema, so two deployments can share a database', async () => {
    const other = await open({ schema: freshSchema('neighbour') });
    await store.kv('bot:a').set('k', 'mine');
    await store.outbox.enqueue({ target: 'wall:1', payload: 1 });
    expect(await other.kv('bot:a').get('k')).toBeUndefined();
    expect(await other.outbox.reserve(10_000)).toBeNull();
    const raw = rawPostgres(url!);
    try {
      const { rows } = await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1', [schema]);
      expect(rows[0]!.n).toBeGreaterThanOrEqual(8);
    } finally {
      await raw.end();
    }
  });

  it('accepts the deliveries received in one event-loop turn with one commit on one connection, not one each', async () => {
    const connects = vi.spyOn(store.pool, 'connect');
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `turn-${i}`, envelope: { id: `turn-${i}` } })),
      );
      expect(results.every((r) => r.accepted)).toBe(true);
      expect(connects).toHaveBeenCalledTimes(1);
    } finally {
      connects.mockRestore();
    }
  });

  it('stores the accepts still waiting for their turn when it is closed, before its connections go', async () => {
    const closing = freshSchema('close');
    const first = await openStore({ kind: 'postgres', url: url!, schema: closing }, { clock });
    const accepts = Array.from({ length: 5 }, (_, i) => first.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `bye-${i}`, envelope: { id: `bye-${i}` } }));
    await first.close();
    expect((await Promise.all(accepts)).every((r) => r.accepted)).toBe(true);
    const again = await open({ schema: closing });
    expect(await again.inbox.list()).toHaveLength(5);
  });

  it('is at the newest schema version', async () => {
    expect(await store.schemaVersion()).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('brings an empty schema to the newest version once when several replicas open it at the same time', async () => {
    const fresh = freshSchema('race');
    const stores = await Promise.all(Array.from({ length: 4 }, () => open({ schema: fresh })));
    for (const s of stores) expect(await s.schemaVersion()).toBe(POSTGRES_SCHEMA_VERSION);
    const raw = rawPostgres(url!);
    try {
      const { rows } = await raw.query<{ version: number }>(`SELECT version FROM "${fresh}".schema_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    } finally {
      await raw.end();
    }
  });

  it('refuses to open a schema that is behind without migrating, naming intrabot migrate, and opens it once migrated', async () => {
    const behind = freshSchema('behind');
    const refused = await open({ schema: behind, migrate: false }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'store_unavailable' });
    expect(String((refused as Error).message)).toContain(`the PostgreSQL schema "${behind}" is at version 0`);
    expect(String((refused as Error).message)).toContain('run intrabot migrate');
    expect(await migrateStore({ kind: 'postgres', url: url!, schema: behind }, { clock })).toEqual({ kind: 'postgres', from: 0, to: POSTGRES_SCHEMA_VERSION });
    expect(await migrateStore({ kind: 'postgres', url: url!, schema: behind }, { clock })).toEqual({
      kind: 'postgres',
      from: POSTGRES_SCHEMA_VERSION,
      to: POSTGRES_SCHEMA_VERSION,
    });
    expect(await (await open({ schema: behind, migrate: false })).schemaVersion()).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('names the host and database, not the password, when PostgreSQL does not answer', async () => {
    const error = await openStore({ kind: 'postgres', url: 'postgres://app:hunter2@127.0.0.1:1/intranet', schema }, { clock }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'store_unavailable' });
    expect(String((error as Error).message)).toBe('cannot reach PostgreSQL at 127.0.0.1:1/intranet');
    expect(String((error as Error).message)).not.toContain('hunter2');
  });

  it('wakes a watcher on another connection when work is accepted or enqueued', async () => {
    const watcher = await open();
    const heard: string[] = [];
    let told: () => void = () => undefined;
    const unwatch = watcher.watch((queue) => {
      heard.push(queue);
      told();
    });
    try {
      const hear = async (queue: string, act: () => Promise<unknown>): Promise<void> => {
        // LISTEN is set up in the background: act until the watcher has heard (the first acts may go unheard)
        for (let i = 0; i < 100 && !heard.includes(queue); i += 1) {
          const heardNow = new Promise<void>((resolve) => {
            told = resolve;
          });
          await act();
          await Promise.race([heardNow, new Promise((resolve) => setTimeout(resolve, 100))]);
        }
        expect(heard).toContain(queue);
      };
      let n = 0;
      await hear('outbox', () => store.outbox.enqueue({ target: 'wall:9', payload: n++ }));
      await hear('inbox', () => store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: `wake-${n++}`, envelope: {} }));
    } finally {
      unwatch();
    }
  });

  it("keeps one line per target when replicas enqueue to it at once: one in flight, each replica's entries in its order", async () => {
    const line = freshSchema('enqueue_race');
    const [a, b, reader] = await Promise.all([open({ schema: line }), open({ schema: line }), open({ schema: line })]);
    const enqueueAll = async (store: Store, name: string): Promise<void> => {
      for (let n = 0; n < 40; n += 1) await store.outbox.enqueue({ target: 'wall:shared', payload: { name, n } });
    };
    // a reader reserving all along: it must never see two entries of the line at once
    let enqueuing = true;
    let most = 0;
    const order: { name: string; n: number }[] = [];
    const read = async (): Promise<void> => {
      while (enqueuing || (await reader.outbox.depth('wall:shared')) > 0) {
        const leases = await reader.outbox.reserveMany(30_000, 10);
        // while one is held, another look finds nothing more of its line (an entry committed meanwhile included)
        const more = leases.length > 0 ? await reader.outbox.reserveMany(30_000, 10) : [];
        most = Math.max(most, leases.length + more.length);
        for (const lease of [...leases, ...more]) {
          order.push(lease.payload as { name: string; n: number });
          expect(await reader.outbox.complete(lease)).toBe(true);
        }
      }
    };
    const reading = read();
    await Promise.all([enqueueAll(a, 'a'), enqueueAll(b, 'b')]);
    enqueuing = false;
    await reading;
    expect(most).toBe(1);
    for (const name of ['a', 'b']) expect(order.filter((p) => p.name === name).map((p) => p.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('hands out at most one entry per target at a time and in order, across replicas reserving at once', async () => {
    const lines = freshSchema('lines');
    const replicas = await Promise.all(Array.from({ length: 3 }, () => open({ schema: lines })));
    const targets = Array.from({ length: 6 }, (_, i) => `wall:${i}`);
    for (let n = 0; n < 5; n += 1) for (const target of targets) await replicas[0]!.outbox.enqueue({ target, payload: { target, n } });
    const inFlight = new Map<string, number>();
    const seen = new Map<string, number[]>();
    let overlap = false;
    const work = async (replica: Store): Promise<void> => {
      for (let idle = 0; idle < 20;) {
        const leases = await replica.outbox.reserveMany(30_000, 4);
        if (leases.length === 0) {
          idle += 1;
          continue;
        }
        idle = 0;
        for (const lease of leases) {
          const { target, n } = lease.payload as { target: string; n: number };
          if ((inFlight.get(target) ?? 0) > 0) overlap = true;
          inFlight.set(target, (inFlight.get(target) ?? 0) + 1);
          seen.set(target, [...(seen.get(target) ?? []), n]);
        }
        await Promise.all(
          leases.map(async (lease) => {
            inFlight.set(lease.target, (inFlight.get(lease.target) ?? 1) - 1);
            expect(await replica.outbox.complete(lease)).toBe(true);
          }),
        );
      }
    };
    await Promise.all(replicas.map(work));
    expect(overlap).toBe(false);
    for (const target of targets) expect(seen.get(target)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe.skipIf(!url)('postgres store when its connections are killed (pg_terminate_backend)', () => {
  const schema = uniquePostgresSchema('killed');
  const clock = new AdjustableClock({ start: START, frozen: true });
  // the store's connections carry a name of their own, so the test kills only them on the shared server
  const appName = schema;
  const killedUrl = (): string => {
    const withName = new URL(url!);
    withName.searchParams.set('application_name', appName);
    return withName.toString();
  };
  const raw = url ? rawPostgres(url) : undefined;
  const killAll = async (): Promise<number> => {
    const { rows } = await raw!.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1) AS killed',
      [appName],
    );
    return rows[0]!.n;
  };
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ kind: 'postgres', url: killedUrl(), schema }, { clock });
  });

  afterAll(async () => {
    await store?.close();
    await raw?.end();
    await dropPostgresSchema(url!, schema);
  });

  it('loses no acknowledged delivery and doubles none when its connections are killed mid-stream, and recovers by itself', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `kill-${i}`);
    const acknowledged = new Set<string>();
    // a platform that retries every delivery that was not acknowledged
    const send = async (deliveryId: string): Promise<void> => {
      for (let attempt = 0; attempt < 1_000; attempt += 1) {
        try {
          await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId, envelope: { id: deliveryId } });
          acknowledged.add(deliveryId);
          return;
        } catch {
          // not acknowledged: sent again
        }
      }
    };
    let killed = 0;
    let streaming = true;
    const stream = (async () => {
      for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map(send));
      streaming = false;
    })();
    // every connection of the store killed, 30 times over while the stream runs
    for (let round = 0; streaming && round < 30; round += 1) {
      killed += await killAll();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await stream;
    expect(killed).toBeGreaterThan(0);
    expect(acknowledged.size).toBe(ids.length);
    const entries = await store.inbox.list({ limit: 1_000 });
    const stored = entries.map((e) => e.payload.deliveryId);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual([...ids].sort());
    // the runtime's own work goes on over new connections
    await killAll();
    const leases = await retrying(() => store.inbox.reserveMany(30_000, 10));
    expect(leases).toHaveLength(10);
    for (const lease of leases) expect(await store.inbox.complete(lease)).toBe(true);
  });
  it('hears wake-ups again once its LISTEN connection was killed, on a connection it opens by itself', async () => {
    const heard: string[] = [];
    const unwatch = store.watch((queue) => heard.push(queue));
    const other = await openStore({ kind: 'postgres', url: url!, schema }, { clock });
    try {
      let n = 0;
      const enqueueUntilHeard = async (): Promise<void> => {
        heard.length = 0;
        for (let i = 0; i < 100 && heard.length === 0; i += 1) {
          await other.outbox.enqueue({ target: `wake:${n}`, payload: n++ });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(heard).toContain('outbox');
      };
      await enqueueUntilHeard();
      expect(await killAll()).toBeGreaterThan(0);
      await enqueueUntilHeard();
    } finally {
      unwatch();
      await other.close();
    }
  });
});

/** An operation tried again after a failure, as the workers do on their next turn. */
async function retrying<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
}
