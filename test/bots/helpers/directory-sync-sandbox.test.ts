import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type IntrabotApi } from '../../../src/api/create-api-client';
import type { BotStore } from '../../../src/bots/context';
import { confirmUsers, syncDirectory } from '../../../src/bots/helpers/directory-sync';
import { AdjustableClock } from '../../../src/clock';
import { createSandbox, type Sandbox } from '../../../src/sandbox/sandbox';
import { openStore } from '../../../src/store/open-store';
import type { Store } from '../../../src/store/store';
import { SandboxControl } from '../../../src/testing/sandbox-control';

const DAY_S = 86_400;
// the sandbox answers a page of a 10,000-user directory in about 0.1 s, so the full first sync
// would take half a minute; a few thousand show the same thing: the daily cost does not grow with size
const USERS = 2_500;

interface LoggedRequest {
  method: string;
  path: string;
}

/**
 * DESIGN.md, Targets: "a daily birthday run over 10,000 users uses the incremental `since` sync and
 * costs at most 10 requests on days with no new users". Against the sandbox's `large` seed, with
 * the copy in a real SQLite store.
 */
describe('directory sync over a large directory (sandbox large seed, SQLite store)', () => {
  let sandbox: Sandbox;
  let platform: SandboxControl;
  let api: IntrabotApi;
  let store: Store;
  let botStore: BotStore;
  let dataDir: string;
  const clock = new AdjustableClock({ start: Date.UTC(2026, 2, 30, 5) });

  beforeAll(async () => {
    sandbox = await createSandbox({ clock, port: 0, seed: 'large', users: USERS });
    platform = new SandboxControl(sandbox.baseUrl);
    // the first full sync is 200+ pages; at 60 a minute that is the weekly cost, not this test's subject
    await platform.settings({ rate_limit_per_minute: 100_000 });
    api = createApiClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-dirsync-'));
    store = await openStore({ kind: 'sqlite', path: join(dataDir, 'store.db') }, { clock });
    const kv = store.kv('bot:test:birthday');
    botStore = {
      get: async <T>(key: string) => (await kv.get(key)) as T | undefined,
      set: async (key, value) => kv.set(key, value as never),
      delete: async (key) => {
        await kv.delete(key);
      },
    };
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await store?.close();
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function requestsDuring(work: () => Promise<unknown>): Promise<LoggedRequest[]> {
    await platform.request('DELETE', '/_sandbox/requests');
    await work();
    return (await platform.request<{ data: LoggedRequest[] }>('GET', '/_sandbox/requests?limit=500')).data;
  }

  it('reads the whole directory in pages of 50 on the first run, telling its progress page by page, and keeps it compact in one key', async () => {
    const progress: string[] = [];
    const requests = await requestsDuring(() => syncDirectory({ api, store: botStore, now: clock.now(), progress: (text) => progress.push(text) }));
    const listed = (await platform.request<{ meta: { total: number } }>('GET', '/api/open/v1/users?per_page=1')).meta.total;
    expect(listed).toBeGreaterThan(USERS);
    expect(requests).toHaveLength(Math.ceil(listed / 50));
    expect(progress[0]).toBe('directory (full): 50 users read');
    expect(progress.at(-1)).toBe(`directory (full): ${listed} users read`);
    expect(progress.length).toBeGreaterThanOrEqual(requests.length);
    expect(requests.every((r) => r.path.includes('per_page=50'))).toBe(true);
    const bytes = JSON.stringify(await botStore.get('directory')).length;
    // about 80 bytes a user; a record of full user objects would be several times that
    expect(bytes / listed).toBeLessThan(120);
  }, 60_000);

  it('costs one request the next day when nobody joined, asking with since', async () => {
    clock.advance(DAY_S * 1000);
    const requests = await requestsDuring(() => syncDirectory({ api, store: botStore, now: clock.now() }));
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!.path, 'http://x').searchParams.get('since')).not.toBeNull();
  });

  it('brings a newcomer the day after in one request, and checks celebrants one request each', async () => {
    const created = await platform.request<{ data: { id: number } }>('POST', '/api/open/v1/users', {
      email: 'newcomer@example.com',
      first_name: 'New',
      last_name: 'Comer',
    });
    clock.advance(DAY_S * 1000);
    let ids: number[] = [];
    const requests = await requestsDuring(async () => {
      const { directory } = await syncDirectory({ api, store: botStore, now: clock.now() });
      expect(directory.users.map((u) => u.id)).toContain(created.data.id);
      ids = directory.users.slice(0, 3).map((u) => u.id);
      await confirmUsers({ api, store: botStore, now: clock.now() }, ids);
    });
    expect(requests.filter((r) => r.path.startsWith('/api/open/v1/users?'))).toHaveLength(1);
    expect(requests.filter((r) => /^\/api\/open\/v1\/users\/\d+$/.test(r.path))).toHaveLength(ids.length);
    const copy = (await botStore.get<{ users: unknown[][] }>('directory'))!;
    expect(copy.users.some((u) => u[0] === created.data.id)).toBe(true);
  });
});
