import { afterAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { migratePostgres, POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres/postgres-migrations';
import { dropPostgresSchema, postgresTestUrl, rawPostgres, uniquePostgresSchema } from '../helpers/postgres';
import { CONTRACT_KEY } from './contract';

// Issue #26: an upgrade from the previous schema version with queued work in it. Version 2 marks each
// outbox line's head (triggers keep it); a version-1 schema with work waiting is upgraded in place.
const url = postgresTestUrl();
const START = Date.UTC(2026, 11, 4, 9, 0, 0);
const LEASE_MS = 30_000;

describe.skipIf(!url)('postgres store: upgrading a schema with queued work in it', () => {
  const schemas: string[] = [];
  const opened: Store[] = [];
  const raw = url ? rawPostgres(url) : undefined;
  afterAll(async () => {
    for (const store of opened) await store.close();
    for (const schema of schemas) await dropPostgresSchema(url!, schema);
    await raw?.end();
  });

  const open = async (schema: string, clock: AdjustableClock): Promise<Store> => {
    const store = await openStore({ kind: 'postgres', url: url!, schema }, { clock, secretKey: CONTRACT_KEY });
    opened.push(store);
    return store;
  };

  /** A schema at version 1 holding work as version 1 wrote it: three outbox lines, a dead letter, an inbox entry. */
  async function versionOneWithWork(): Promise<string> {
    const schema = uniquePostgresSchema('upgrade');
    schemas.push(schema);
    expect(await migratePostgres(url!, schema, POSTGRES_MIGRATIONS.slice(0, 1))).toEqual({ from: 0, to: 1 });
    const s = `"${schema}"`;
    const row = (id: string, target: string, availableAt: number, dead = false) =>
      raw!.query(
        `INSERT INTO ${s}.outbox (id, target, payload, dead, not_before, available_at, enqueued_at, dead_reason) VALUES ($1, $2, $3, $4, $5, $5, $6, $7)`,
        [id, target, JSON.stringify({ id }), dead, availableAt, START - 60_000, dead ? 'failed for good' : null],
      );
    // wall:1's head is backing off for a minute; two wait behind it
    await row('a1', 'wall:1', START + 60_000);
    await row('a2', 'wall:1', START - 50_000);
    await row('a3', 'wall:1', START - 40_000);
    await row('b1', 'wall:2', START - 30_000);
    await row('b2', 'wall:2', START - 20_000);
    await row('c1', 'chat:9', START - 10_000);
    await row('dead', 'wall:2', START - 5_000, true);
    await raw!.query(`INSERT INTO ${s}.inbox (id, target, payload, not_before, available_at, enqueued_at) VALUES ('in1', 'in1', $1, $2, $2, $2)`, [
      JSON.stringify({ tenant: 'sandbox', bot: 'ops', deliveryId: 'd-1', dedupeKey: null, event: 'post.created', envelope: { id: 'd-1' } }),
      START - 1_000,
    ]);
    return schema;
  }

  /** Reserves and completes until nothing is due (moving the clock past backoffs), answering each target's entries in the order handed out. */
  async function drain(store: Store, clock: AdjustableClock): Promise<Record<string, string[]>> {
    const order: Record<string, string[]> = {};
    for (let rounds = 0; rounds < 50; rounds++) {
      const lease = await store.outbox.reserve(LEASE_MS);
      if (!lease) {
        if (clock.now() > START + 120_000) return order;
        clock.advance(30_000);
        continue;
      }
      (order[lease.target] ??= []).push(lease.id);
      expect(await store.outbox.complete(lease)).toBe(true);
    }
    throw new Error('the outbox did not drain');
  }

  it('brings a version-1 schema with queued work to the newest version, marks each line head, and hands every entry out once, in line order', async () => {
    const schema = await versionOneWithWork();
    const clock = new AdjustableClock({ start: START, frozen: true });
    const store = await open(schema, clock);
    expect(POSTGRES_SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    expect(await store.schemaVersion()).toBe(POSTGRES_SCHEMA_VERSION);
    const heads = await raw!.query<{ id: string }>(`SELECT id FROM "${schema}".outbox WHERE head ORDER BY id`);
    expect(heads.rows.map((r) => r.id)).toEqual(['a1', 'b1', 'c1']);

    // wall:1 waits for its head's backoff; the other lines go meanwhile
    const first = await store.outbox.reserve(LEASE_MS);
    const second = await store.outbox.reserve(LEASE_MS);
    expect([first?.id, second?.id].sort()).toEqual(['b1', 'c1']);
    expect(await store.outbox.reserve(LEASE_MS)).toBeNull();
    await store.outbox.complete(first!);
    await store.outbox.complete(second!);

    expect(await drain(store, clock)).toEqual({ 'wall:1': ['a1', 'a2', 'a3'], 'wall:2': ['b2'] });
    expect((await store.outbox.list({ state: 'dead', limit: 10 })).map((e) => e.id)).toEqual(['dead']);
    expect(await store.inbox.reserve(LEASE_MS)).toMatchObject({ id: 'in1', payload: { deliveryId: 'd-1' } });
  });

  it('a dead letter requeued after the upgrade goes to the end of its line, and a new entry behind a backing-off head waits for it', async () => {
    const schema = await versionOneWithWork();
    const clock = new AdjustableClock({ start: START, frozen: true });
    const store = await open(schema, clock);
    expect(await store.outbox.requeue('dead')).toBe(true);
    await store.outbox.enqueue({ target: 'wall:1', payload: { id: 'a4' }, id: 'a4' });
    expect(await drain(store, clock)).toEqual({ 'wall:2': ['b1', 'b2', 'dead'], 'chat:9': ['c1'], 'wall:1': ['a1', 'a2', 'a3', 'a4'] });
  });

  it('never leaves a line without a head when an enqueue races the completion of the head, on two connections', async () => {
    const schema = uniquePostgresSchema('heads');
    schemas.push(schema);
    const clock = new AdjustableClock({ start: START, frozen: true });
    const [one, two] = [await open(schema, clock), await open(schema, clock)];
    for (let i = 0; i < 40; i++) {
      const target = `wall:${i}`;
      await one.outbox.enqueue({ target, payload: i, id: `${target}:head` });
      const lease = (await one.outbox.reserve(LEASE_MS))!;
      expect(lease.id).toBe(`${target}:head`);
      await Promise.all([one.outbox.complete(lease), two.outbox.enqueue({ target, payload: i, id: `${target}:next` })]);
      const next = await two.outbox.reserve(LEASE_MS);
      expect(next?.id, `line ${target} kept a head`).toBe(`${target}:next`);
      await two.outbox.complete(next!);
    }
  });
});
