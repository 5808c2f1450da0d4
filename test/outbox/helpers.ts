import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/client';
import { AdjustableClock, type Clock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { OutboxSender, type OutboxSenderOptions, type SendSteps } from '../../src/outbox/sender';

/** A sender's options for a test: its steps' client is the rig's own unless given. */
export type TestSenderOptions = Partial<Omit<OutboxSenderOptions, 'steps'>> & { steps?: Partial<SendSteps> };
import { SharedRateLimiter } from '../../src/api/shared-rate-limiter';
import { POSTS_KIND, type PostRecord } from '../../src/sandbox/routes/posts/records';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { openStore, type Store, type StoreConfig } from '../../src/store';

export const TEST_SECRET_KEY = 'a'.repeat(64);

export interface Platform {
  sandbox: Sandbox;
  baseUrl: string;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  wallPosts(wallId: number): Promise<{ id: number; body: string; author: { id: number } }[]>;
  /** Requests the sandbox logged (newest last), optionally filtered by method and path prefix. */
  requests(filter?: { method?: string; path?: string }): Promise<{ method: string; path: string; status: number; at: string }[]>;
  close(): Promise<void>;
}

/** The sandbox on a random loopback port, on `clock`. */
export async function startPlatform(clock: AdjustableClock): Promise<Platform> {
  const sandbox = await createSandbox({ port: 0, clock });
  const request = async (method: string, url: string, body: unknown, auth: boolean) => {
    const headers: Record<string, string> = auth ? { authorization: `Bearer ${sandbox.token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!auth && res.status >= 400) throw new Error(`sandbox control ${method} ${url} answered ${res.status}`);
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const platform: Platform = {
    sandbox,
    baseUrl: sandbox.baseUrl,
    api: async (method, path, body) => (await request(method, `${sandbox.baseUrl}/api/open/v1${path}`, body, true)) as never,
    control: async (method, path, body) => (await request(method, `${sandbox.baseUrl}${path}`, body, false)).body,
    async wallPosts(wallId) {
      // read the sandbox's state directly: the API's rate limit belongs to the code under test
      return sandbox.ctx.db
        .filter<PostRecord & { id: number }>(POSTS_KIND.posts, (p) => p.wall_id === wallId)
        .map((p) => ({ id: p.id, body: p.body, author: { id: p.author_id } }))
        .sort((a, b) => a.id - b.id);
    },
    async requests(filter = {}) {
      const res = (await platform.control('GET', '/_sandbox/requests?limit=500')) as { data: { method: string; path: string; status: number; at: string }[] };
      return res.data.filter((r) => (!filter.method || r.method === filter.method) && (!filter.path || r.path.startsWith(filter.path))).reverse();
    },
    close: () => sandbox.close(),
  };
  return platform;
}

export interface TestStore {
  store: Store;
  config: StoreConfig;
  close(): Promise<void>;
}

/** A fresh SQLite store in a temporary directory. */
export async function openTempStore(clock: Clock): Promise<TestStore> {
  const dir = await mkdtemp(join(tmpdir(), 'intrabot-outbox-'));
  const config: StoreConfig = { kind: 'sqlite', path: join(dir, 'intrabot.db') };
  const store = await openStore(config, { clock, secretKey: TEST_SECRET_KEY });
  return {
    store,
    config,
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Rig {
  outbox: Outbox;
  sender: OutboxSender;
  client: ApiClient;
}

/** An outbox and a sender on `store`, sending to `platform` through a client paced by the shared limiter. */
export function rig(store: Store, clock: Clock, baseUrl: string, options: TestSenderOptions & { headersTimeoutMs?: number } = {}): Rig {
  const limiter = new SharedRateLimiter({ rate: store.rate, clock });
  const client = new ApiClient({
    baseUrl,
    token: 'svc_sandbox_token',
    clock,
    limiter,
    ...(options.headersTimeoutMs ? { timeouts: { headersMs: options.headersTimeoutMs } } : {}),
  });
  const sender = new OutboxSender({ store, clock, pollMs: 50, random: () => 0.5, ...options, steps: { clientFor: () => client, ...options.steps } });
  const outbox = new Outbox({ store, clock, sender });
  return { outbox, sender, client };
}

/**
 * Runs a frozen clock fast: every `stepMs` of real time it moves `advanceMs`, until `done()` holds or
 * `maxRealMs` passed. Returns whether `done()` held.
 */
export async function runClockUntil(
  clock: AdjustableClock,
  done: () => boolean | Promise<boolean>,
  opts: { advanceMs?: number; stepMs?: number; maxRealMs?: number } = {},
): Promise<boolean> {
  const { advanceMs = 100, stepMs = 2, maxRealMs = 15_000 } = opts;
  const started = Date.now();
  while (Date.now() - started < maxRealMs) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    clock.advance(advanceMs);
  }
  return done();
}

/** Waits (real time) until `done()` holds. */
export async function waitUntil(done: () => boolean | Promise<boolean>, maxRealMs = 15_000): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < maxRealMs) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return done();
}
