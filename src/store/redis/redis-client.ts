import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { StoreUnavailableError } from '../store-errors';
import type { RedisConnection, RedisEndpoint } from './redis-config';

/** One server, a Sentinel-managed primary, or a Cluster: the store speaks to each through the same commands. */
export type RedisClient = Redis | Cluster;

// during an outage (a failover included) a command fails at once rather than waiting in a queue for the
// reconnection (which goes on in the background, every second at most), and one a hung server does not
// answer after 5 s: a route answers 503 promptly instead of holding its caller (the platform gives up
// after 3 s), and the sender retries
const COMMON: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 3_000,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  retryStrategy: (times) => Math.min(times * 100, 1_000),
  commandTimeout: 5_000,
  enableAutoPipelining: true,
};

/**
 * A failed-over primary demoted to a replica answers writes with READONLY until the connection is made
 * again; reconnecting asks the sentinels for the new primary. (Sentinel also closes the clients of the
 * instances it reconfigures, so this is the second line.)
 */
const reconnectOnReadonly = (error: Error): boolean => error.message.startsWith('READONLY');

/**
 * A connected client for the servers named; one that does not answer is `store_unavailable`, naming the
 * hosts only (a URL may carry a password). `commandTimeoutMs` lengthens the command time-out, for a
 * connection that waits for replicas.
 */
export async function connectRedis(connection: RedisConnection, options: { commandTimeoutMs?: number } = {}): Promise<RedisClient> {
  const client = createClient(connection, { ...COMMON, commandTimeout: options.commandTimeoutMs ?? COMMON.commandTimeout });
  // errors surface on the commands that fail; without a listener ioredis prints every reconnect failure
  client.on('error', () => undefined);
  try {
    await withDeadline(client.connect(), CONNECT_DEADLINE_MS);
    return client;
  } catch (cause) {
    client.disconnect();
    throw new StoreUnavailableError(`cannot reach Redis at ${redisServersShown(connection)}`, { cause });
  }
}

/**
 * How long opening waits for a first answer. ioredis retries on its own, which is what a running store
 * wants after an outage, but through Sentinel it would never give up at open when no sentinel answers.
 */
const CONNECT_DEADLINE_MS = 6_000;

async function withDeadline(connecting: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([connecting, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function createClient(connection: RedisConnection, common: RedisOptions): RedisClient {
  if (connection.mode === 'single') return new Redis(connection.url, common);
  const tls = connection.tls ? { tls: {} } : {};
  if (connection.mode === 'sentinel') {
    return new Redis({
      ...common,
      ...tls,
      sentinels: connection.sentinels,
      name: connection.name,
      db: connection.db,
      ...(connection.username === undefined ? {} : { username: connection.username }),
      ...(connection.password === undefined ? {} : { password: connection.password }),
      ...(connection.sentinelPassword === undefined ? {} : { sentinelPassword: connection.sentinelPassword }),
      // the sentinels' +switch-master is heard, so a failover is followed before a command fails on it
      failoverDetector: true,
      reconnectOnError: reconnectOnReadonly,
    });
  }
  const { lazyConnect, enableOfflineQueue, enableAutoPipelining, ...perNode } = common;
  const clusterOptions: ClusterOptions = {
    lazyConnect,
    enableOfflineQueue,
    enableAutoPipelining,
    // reads go to masters: a replica's copy may be behind what the store just wrote
    scaleReads: 'master',
    clusterRetryStrategy: (times) => Math.min(times * 100, 1_000),
    redisOptions: {
      ...perNode,
      ...tls,
      ...(connection.username === undefined ? {} : { username: connection.username }),
      ...(connection.password === undefined ? {} : { password: connection.password }),
      reconnectOnError: reconnectOnReadonly,
    },
  };
  return new Cluster(connection.nodes, clusterOptions);
}

/** Where the servers are, for messages: hosts and ports, never credentials. */
export function redisServersShown(connection: RedisConnection): string {
  const list = (endpoints: RedisEndpoint[]) => endpoints.map((e) => (e.host.includes(':') ? `[${e.host}]:${e.port}` : `${e.host}:${e.port}`)).join(',');
  if (connection.mode === 'sentinel') return `sentinels ${list(connection.sentinels)} (master "${connection.name}")`;
  if (connection.mode === 'cluster') return `cluster nodes ${list(connection.nodes)}`;
  try {
    return new URL(connection.url).host;
  } catch {
    return '(unparseable INTRABOT_REDIS_URL)';
  }
}
