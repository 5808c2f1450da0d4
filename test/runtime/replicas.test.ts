import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemClock } from '../../src/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { openStore, type Store } from '../../src/store';
import { SandboxControl, type Item } from '../../src/testing/sandbox-control';
import { freePort } from '../helpers/free-port';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { settleStore } from '../helpers/settle';

const REDIS = redisTestUrl();
const POSTGRES = postgresTestUrl();

/** A round-robin load balancer in front of the replicas, as a deployment would have. */
function balancer(ports: number[]): Server {
  let next = 0;
  return createServer((req, res) => {
    const port = ports[next++ % ports.length]!;
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

/** Where the replicas keep their shared state: the settings they start with, the store a test reads, the cleanup. */
interface SharedStore {
  env: Record<string, string | undefined>;
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

function redisShared(): SharedStore {
  const prefix = uniqueRedisPrefix('replicas');
  return {
    env: { INTRABOT_REDIS_URL: REDIS!, INTRABOT_REDIS_PREFIX: prefix },
    open: () => openStore({ kind: 'redis', url: REDIS!, prefix }, { clock: createSystemClock() }),
    cleanup: () => deleteRedisPrefix(REDIS!, prefix),
  };
}

function postgresShared(): SharedStore {
  const schema = uniquePostgresSchema('replicas');
  return {
    // INTRABOT_REDIS_URL (CI sets it) beside INTRABOT_DATABASE_URL would be a configuration error
    env: { INTRABOT_REDIS_URL: undefined, INTRABOT_DATABASE_URL: POSTGRES!, INTRABOT_DATABASE_SCHEMA: schema },
    open: () => openStore({ kind: 'postgres', url: POSTGRES!, schema }, { clock: createSystemClock() }),
    cleanup: () => dropPostgresSchema(POSTGRES!, schema),
  };
}

// without its server (INTRABOT_REDIS_URL, INTRABOT_TEST_DATABASE_URL unset) a half is skipped, the reason printed by its helper
for (const { name, skip, store } of [
  { name: 'Redis', skip: !REDIS, store: redisShared },
  { name: 'PostgreSQL', skip: !POSTGRES, store: postgresShared },
])
  describe.skipIf(skip)(`three runtime replicas sharing ${name} behind a load balancer`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-replicas-'));
    const where = store();
    let sandbox: Sandbox;
    let platform: SandboxControl;
    let lb: Server;
    const replicas: ChildProcess[] = [];
    let replicaUrls: string[] = [];
    let shared: Store;

    beforeAll(async () => {
      sandbox = await createSandbox({ port: 0, seed: 'demo' });
      platform = new SandboxControl(sandbox.baseUrl);
      const ports = [await freePort(), await freePort(), await freePort()];
      replicaUrls = ports.map((p) => `http://127.0.0.1:${p}`);
      const lbPort = await freePort();
      lb = balancer(ports);
      await new Promise<void>((done) => lb.listen(lbPort, '127.0.0.1', done));
      for (const [i, port] of ports.entries()) {
        const env = {
          ...process.env,
          INTRABOT_BASE_URL: sandbox.baseUrl,
          INTRABOT_TOKEN: sandbox.token,
          INTRABOT_SECRET_KEY: 'replicas-test-key-not-for-production',
          ...where.env,
          INTRABOT_PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
          INTRABOT_PORT: String(port),
          INTRABOT_DATA_DIR: join(dataDir, `replica-${i}`),
          INTRABOT_BOTS_DIR: resolve('test/fixtures/bots-replicas'),
          INTRABOT_LOG_LEVEL: 'silent',
        };
        replicas.push(spawn(process.execPath, ['bin/intrabot.mjs', 'start'], { env, stdio: 'ignore' }));
      }
      await Promise.all(replicaUrls.map(waitReady));
      // the store the replicas share, read to know when their inbox and outbox are empty
      shared = await where.open();
    }, 120_000);

    afterAll(async () => {
      for (const child of replicas) child.kill('SIGTERM');
      await Promise.all(replicas.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      lb?.close();
      await shared?.close();
      await sandbox?.close();
      await where.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    it('provisions one webhook endpoint for the bot, not one per replica', async () => {
      const hooks = await platform.request<{ data: { name: string; revoked_at: string | null }[] }>('GET', '/api/open/v1/webhooks', undefined, sandbox.token);
      expect(hooks.data.filter((h) => h.name === 'intrabot:counter' && !h.revoked_at)).toHaveLength(1);
    });

    it('handles each delivery once, whichever replica receives it, even when it is replayed to every replica', async () => {
      const posts: Item[] = [];
      for (let i = 0; i < 6; i++) posts.push(await platform.employeePost(10, { wall_id: 2, body: 'ping' }));
      for (const post of posts)
        await platform.waitFor(
          () => platform.commentsOn(post.id),
          (c) => c.length > 0,
          20_000,
        );
      // the same signed delivery, replayed to each replica directly (within its 5-minute window)
      const deliveries = (await platform.deliveries({ event: 'service.post.created' })) as { body: string; request_headers: Record<string, string> }[];
      const first = deliveries.find((d) => d.body.includes(`"id":${posts[0]!.id},`))!;
      for (const url of replicaUrls) {
        const res = await fetch(`${url}/hooks/default/counter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', signature: first.request_headers.Signature!, timestamp: first.request_headers.Timestamp! },
          body: first.body,
        });
        expect(res.status).toBe(200);
      }
      await settleStore(shared, platform);
      for (const post of posts) expect(await platform.commentsOn(post.id)).toHaveLength(1);
    }, 60_000);

    // issue #24: six /cool from one user at once across three replicas gave 3 to 5 "please wait" answers
    it("answers a user's tries too early once per cooldown, whichever replicas take them", async () => {
      const first = await platform.employeePost(10, { wall_id: 2, body: '/cool' });
      await platform.waitFor(
        () => platform.commentsOn(first.id),
        (c) => c.length > 0,
        20_000,
      );
      const tries = await Promise.all([0, 1, 2, 3, 4].map(() => platform.employeePost(10, { wall_id: 2, body: '/cool' })));
      await settleStore(shared, platform);
      const answers = (await Promise.all([first, ...tries].map((post) => platform.commentsOn(post.id)))).flat().map((c) => c.body ?? '');
      expect(answers.filter((body) => body === 'cooled')).toHaveLength(1);
      expect(answers.filter((body) => body.includes('can be used again'))).toHaveLength(1);
    }, 60_000);

    it('runs each cron slot once across the replicas and never exceeds the rate limit', async () => {
      // a slot every 3 s on the replicas' real clocks: wait for two, then for what they set in motion to play out
      const tickPosts = async () => (await platform.wallPosts(1)).map((p) => p.body ?? '').filter((b) => b.startsWith('tick '));
      await platform.waitFor(tickPosts, (posted) => posted.length >= 2, 20_000);
      await settleStore(shared, platform);
      const ticks = await tickPosts();
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(new Set(ticks).size).toBe(ticks.length);
      const log = await platform.request<{ data: { status: number }[] }>('GET', '/_sandbox/requests?limit=500');
      expect(log.data.filter((r) => r.status === 429)).toEqual([]);
    }, 30_000);
  });
