import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { freePort } from './free-port';

/** Printed when the tests that start Redis servers of their own (Sentinel, Cluster, WAIT) are skipped. */
export const PRIVATE_REDIS_SKIP_REASON =
  'skipping the Redis Sentinel, Cluster and replica tests: they start servers of their own and need redis-server and redis-cli (Debian: apt install redis-server)';

/** A redis-server of one test's own, in a temporary directory on a free port (a primary, a replica, a sentinel or a cluster node). */
export interface PrivateRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the process (as a crash would); `start` runs it again on the same port and directory. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** A connection of the test's own (closed by `closeAll`). */
  client(): Redis;
}

/** One primary, one replica and three sentinels watching them under `name`. */
export interface PrivateSentinelSet {
  readonly name: string;
  readonly primary: PrivateRedisServer;
  readonly replica: PrivateRedisServer;
  readonly sentinels: readonly PrivateRedisServer[];
  /** `redis+sentinel://127.0.0.1:<s1>,127.0.0.1:<s2>,127.0.0.1:<s3>/<name>`. */
  readonly url: string;
  /** The port of the primary the sentinels name now. */
  primaryPort(): Promise<number>;
  close(): Promise<void>;
}

/** Masters of a Redis Cluster (no replicas), every slot assigned. */
export interface PrivateRedisCluster {
  readonly nodes: readonly PrivateRedisServer[];
  /** `redis+cluster://127.0.0.1:<p1>,127.0.0.1:<p2>,...`. */
  readonly url: string;
  /** A Cluster connection of the test's own. */
  client(): Cluster;
  close(): Promise<void>;
}

/** True when redis-server and redis-cli can be run; else false with the reason printed (under CI, an error). */
export function privateRedisAvailable(): boolean {
  const found = ['redis-server', 'redis-cli'].every((program) => spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0);
  if (found) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${PRIVATE_REDIS_SKIP_REASON}`);
  console.warn(PRIVATE_REDIS_SKIP_REASON);
  return false;
}

/** Polls `check` until it answers true, every 50 ms, or fails after `timeoutMs` naming `what`. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** Everything the helpers started, so one `closeAll` (or a set's `close`) stops it. */
class Servers {
  private readonly dir = mkdtempSync(join(tmpdir(), 'intrabot-redis-'));
  private readonly servers: { child?: ChildProcess | undefined; clients: Set<Redis | Cluster> }[] = [];

  async server(name: string, lines: string[], options: { sentinel?: boolean } = {}): Promise<PrivateRedisServer> {
    const port = await freePort();
    const dir = join(this.dir, name);
    spawnSync('mkdir', ['-p', dir]);
    const conf = join(dir, 'redis.conf');
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        'save ""',
        'appendonly no',
        'protected-mode no',
        ...lines.map((l) => l.replace('$PORT', String(port))),
      ].join('\n') + '\n',
    );
    const state: { child?: ChildProcess | undefined; clients: Set<Redis | Cluster> } = { clients: new Set() };
    this.servers.push(state);
    const start = async (): Promise<void> => {
      const child = spawn('redis-server', options.sentinel ? [conf, '--sentinel'] : [conf], { stdio: 'ignore' });
      child.on('error', () => undefined);
      state.child = child;
      await waitUntil(`${name} on port ${port} to answer PING`, () => ping(port));
    };
    const kill = async (): Promise<void> => {
      const child = state.child;
      state.child = undefined;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };
    await start();
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      kill,
      start,
      client: () => {
        const client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
        client.on('error', () => undefined);
        state.clients.add(client);
        return client;
      },
    };
  }

  track(client: Cluster): Cluster {
    this.servers[0]?.clients.add(client);
    return client;
  }

  async closeAll(): Promise<void> {
    for (const state of this.servers) {
      for (const client of state.clients) client.disconnect();
      const child = state.child;
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function ping(port: number): Promise<boolean> {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A primary, its replica and three sentinels (`down-after-milliseconds` 1000, `failover-timeout` 3000),
 * ready once every sentinel knows the replica and the other two sentinels (so `SENTINEL FAILOVER` has
 * somewhere to go and the new primary is told to all of them).
 */
export async function startSentinelSet(name = 'intrabot'): Promise<PrivateSentinelSet> {
  const servers = new Servers();
  try {
    const primary = await servers.server('primary', []);
    const replica = await servers.server('replica', [`replicaof 127.0.0.1 ${primary.port}`]);
    const sentinels: PrivateRedisServer[] = [];
    for (let i = 0; i < 3; i++) {
      sentinels.push(
        await servers.server(
          `sentinel-${i}`,
          [
            `sentinel monitor ${name} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${name} 1000`,
            `sentinel failover-timeout ${name} 3000`,
            `sentinel parallel-syncs ${name} 1`,
          ],
          { sentinel: true },
        ),
      );
    }
    const watchers = sentinels.map((s) => s.client());
    await waitUntil('the sentinels to know the replica and each other', async () => {
      for (const w of watchers) {
        const replicas = (await w.call('SENTINEL', 'REPLICAS', name)) as unknown[];
        const others = (await w.call('SENTINEL', 'SENTINELS', name)) as unknown[];
        if (replicas.length < 1 || others.length < 2) return false;
      }
      return true;
    });
    const replicaClient = replica.client();
    await waitUntil('the replica to be in sync', async () => (await replicaClient.info('replication')).includes('master_link_status:up'));
    return {
      name,
      primary,
      replica,
      sentinels,
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${name}`,
      primaryPort: async () => Number(((await watchers[0]!.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as string[])[1]),
      close: () => servers.closeAll(),
    };
  } catch (error) {
    await servers.closeAll();
    throw error;
  }
}

/** `count` cluster masters on free ports (each with its bus on another free port), joined by `redis-cli --cluster create`. */
export async function startRedisCluster(count = 3): Promise<PrivateRedisCluster> {
  const servers = new Servers();
  try {
    const nodes: PrivateRedisServer[] = [];
    for (let i = 0; i < count; i++) {
      const bus = await freePort();
      nodes.push(
        await servers.server(`node-${i}`, ['cluster-enabled yes', 'cluster-config-file nodes.conf', 'cluster-node-timeout 2000', `cluster-port ${bus}`]),
      );
    }
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    const clients = nodes.map((n) => n.client());
    await waitUntil('every cluster node to say cluster_state:ok', async () => {
      for (const c of clients) if (!String(await c.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
      return true;
    });
    return {
      nodes,
      url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
      client: () => {
        const client = new Cluster(nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
        client.on('error', () => undefined);
        return servers.track(client);
      },
      close: () => servers.closeAll(),
    };
  } catch (error) {
    await servers.closeAll();
    throw error;
  }
}

/** A primary with one replica, no sentinels: for WAIT with the replica there and taken away. */
export async function startReplicatedPair(): Promise<{ primary: PrivateRedisServer; replica: PrivateRedisServer; close(): Promise<void> }> {
  const servers = new Servers();
  try {
    const primary = await servers.server('primary', []);
    const replica = await servers.server('replica', [`replicaof 127.0.0.1 ${primary.port}`]);
    const replicaClient = replica.client();
    await waitUntil('the replica to be in sync', async () => (await replicaClient.info('replication')).includes('master_link_status:up'));
    return { primary, replica, close: () => servers.closeAll() };
  } catch (error) {
    await servers.closeAll();
    throw error;
  }
}
