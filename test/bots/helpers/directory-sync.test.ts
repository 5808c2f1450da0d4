import { describe, expect, it } from 'vitest';
import type { Caller, CallInput } from '../../../src/api/caller';
import { ApiNotFoundError } from '../../../src/api/errors';
import type { AnyEndpoint } from '../../../src/api/schemas/endpoint';
import type { BotStore } from '../../../src/bots/context';
import { decodeDirectory } from '../../../src/bots/helpers/directory-copy';
import { confirmUsers, syncDirectory } from '../../../src/bots/helpers/directory-sync';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 5, 10, 6);

interface FakeUser {
  id: number;
  name: string;
  first_name: string;
  date_of_birth: string | null;
  hired_at: string | null;
  is_away: boolean;
  groups: { id: number; name: string; type: string }[];
  created_at: string;
}

function fakeUser(id: number, createdAt: string, fields: Partial<FakeUser> = {}): FakeUser {
  return { id, name: `User ${id}`, first_name: 'User', date_of_birth: null, hired_at: null, is_away: false, groups: [], created_at: createdAt, ...fields };
}

/** A platform in memory: users, `since` on created_at (spec: Pagination), and a log of calls. */
class FakePlatform implements Caller {
  users = new Map<number, FakeUser>();
  calls: { endpoint: string; query: Record<string, unknown> | undefined; id?: unknown }[] = [];

  async call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>): Promise<never> {
    const id = (input?.params as Record<string, unknown> | undefined)?.id;
    this.calls.push({ endpoint: endpoint.id, query: input?.query, id });
    if (endpoint.id !== 'users.get') throw new Error(`unexpected ${endpoint.id}`);
    const user = this.users.get(Number(id));
    if (!user) throw new ApiNotFoundError({ method: 'GET', path: `/users/${String(id)}`, status: 404 });
    return user as never;
  }

  async *paginate<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>): AsyncIterable<never> {
    this.calls.push({ endpoint: endpoint.id, query: input?.query });
    const since = input?.query?.since as string | undefined;
    for (const user of this.users.values()) if (since === undefined || Date.parse(user.created_at) > Date.parse(since)) yield user as never;
  }

  add(user: FakeUser): void {
    this.users.set(user.id, user);
  }
}

class MemoryStore implements BotStore {
  values = new Map<string, unknown>();
  writes = 0;
  async get<T>(key: string): Promise<T | undefined> {
    return this.values.get(key) as T | undefined;
  }
  async set(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

function setup() {
  const api = new FakePlatform();
  api.add(fakeUser(1, '2020-01-01T10:00:00+01:00', { date_of_birth: '1990-06-10', groups: [{ id: 3, name: 'Sales', type: 'department' }] }));
  api.add(fakeUser(2, '2021-03-01T10:00:00+01:00'));
  return { api, store: new MemoryStore() };
}

describe('syncDirectory', () => {
  it('reads everything on the first run, 50 per page, and keeps the newest created_at as the cursor', async () => {
    const { api, store } = setup();
    const result = await syncDirectory({ api, store, now: T0 });
    expect(result).toMatchObject({ mode: 'full', fetched: 2 });
    expect(api.calls).toEqual([{ endpoint: 'users.list', query: { per_page: 50 } }]);
    const copy = decodeDirectory(await store.get('directory'));
    expect(copy?.cursor).toBe('2021-03-01T10:00:00+01:00');
    expect(copy?.users.map((u) => u.id)).toEqual([1, 2]);
    expect(copy?.groups).toEqual({ '3': { name: 'Sales', type: 'department' } });
  });

  it('asks only for users created after the cursor the next day, and writes nothing when none came', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    api.calls = [];
    const writes = store.writes;
    const result = await syncDirectory({ api, store, now: T0 + DAY_MS });
    expect(result).toMatchObject({ mode: 'incremental', fetched: 0 });
    expect(api.calls).toEqual([{ endpoint: 'users.list', query: { per_page: 50, since: '2021-03-01T10:00:00+01:00' } }]);
    expect(store.writes).toBe(writes);
    expect(result.directory.users).toHaveLength(2);
  });

  it('writes nothing when a pass brings back only a known, unchanged user', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    const writes = store.writes;
    // a platform that compares `since` in milliseconds but prints seconds sends the newest user again
    const resent: FakePlatform = Object.assign(new FakePlatform(), { users: api.users });
    resent.paginate = async function* () {
      yield api.users.get(2) as never;
    };
    const result = await syncDirectory({ api: resent, store, now: T0 + DAY_MS });
    expect(result.fetched).toBe(1);
    expect(store.writes).toBe(writes);
  });

  it('adds users created since the last run and moves the cursor', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    api.add(fakeUser(3, '2026-06-10T09:00:00+02:00'));
    const result = await syncDirectory({ api, store, now: T0 + DAY_MS });
    expect(result.fetched).toBe(1);
    expect(result.directory.users.map((u) => u.id)).toEqual([1, 2, 3]);
    expect(result.directory.cursor).toBe('2026-06-10T09:00:00+02:00');
  });

  it('re-syncs fully after a week, dropping users the platform no longer lists', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    api.users.delete(2);
    expect((await syncDirectory({ api, store, now: T0 + 6 * DAY_MS })).directory.users.map((u) => u.id)).toEqual([1, 2]);
    const weekly = await syncDirectory({ api, store, now: T0 + 7 * DAY_MS });
    expect(weekly.mode).toBe('full');
    expect(weekly.directory.users.map((u) => u.id)).toEqual([1]);
  });

  it('follows a configured full re-sync interval', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    expect((await syncDirectory({ api, store, now: T0 + 2 * DAY_MS }, { fullResyncEveryMs: 2 * DAY_MS })).mode).toBe('full');
  });
});

describe('confirmUsers', () => {
  it('answers the users as the platform shows them now and removes those it answers 404 for', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    api.add({ ...api.users.get(1)!, is_away: true });
    api.users.delete(2);
    const { present, gone } = await confirmUsers({ api, store, now: T0 }, [1, 2]);
    expect(present.map((u) => [u.id, u.is_away])).toEqual([[1, true]]);
    expect(gone).toEqual([2]);
    const copy = decodeDirectory(await store.get('directory'));
    expect(copy?.users.map((u) => [u.id, u.is_away])).toEqual([[1, true]]);
  });

  it('spends one request per user and writes nothing when nothing changed', async () => {
    const { api, store } = setup();
    await syncDirectory({ api, store, now: T0 });
    api.calls = [];
    const writes = store.writes;
    await confirmUsers({ api, store, now: T0 }, [1, 2]);
    expect(api.calls.map((c) => [c.endpoint, c.id])).toEqual([
      ['users.get', 1],
      ['users.get', 2],
    ]);
    expect(store.writes).toBe(writes);
  });

  it('lets errors other than 404 through, so a platform outage greets nobody by mistake', async () => {
    const { store } = setup();
    const failing: Caller = {
      call: async () => {
        throw new Error('network down');
      },
      paginate: () => {
        throw new Error('unused');
      },
    };
    await expect(confirmUsers({ api: failing, store, now: T0 }, [1])).rejects.toThrow('network down');
  });
});
