import { z } from 'zod';

/**
 * Where the Redis store's servers are, in one of three shapes, and how sure an accept must be:
 *
 * - one server (or a primary with replicas behind a fixed address): `redis://[user:password@]host:6379[/db]`,
 *   `rediss://` for TLS; handed to ioredis as it is;
 * - Sentinel: `redis+sentinel://[user:password@]host1:26379,host2:26379/<master-name>[?db=N&sentinel_password=...]`
 *   (`rediss+sentinel://` for TLS to the data nodes); the password is the data nodes', `sentinel_password`
 *   the sentinels' own when they ask for one;
 * - Cluster: `redis+cluster://[user:password@]host1:7000,host2:7001,...` (`rediss+cluster://`), any few
 *   nodes: the rest are found from them.
 *
 * or the same as a mapping in `intrabot.yaml` (`redis: { sentinels: [...], name }` or `redis: { cluster: [...] }`).
 * A port left out is 26379 for a sentinel, 6379 for a cluster node.
 */

export interface RedisEndpoint {
  host: string;
  port: number;
}

export type RedisConnection =
  | { mode: 'single'; url: string }
  | {
      mode: 'sentinel';
      sentinels: RedisEndpoint[];
      name: string;
      username?: string | undefined;
      password?: string | undefined;
      sentinelPassword?: string | undefined;
      db: number;
      tls: boolean;
    }
  | { mode: 'cluster'; nodes: RedisEndpoint[]; username?: string | undefined; password?: string | undefined; tls: boolean };

const SENTINEL_PORT = 26379;
const CLUSTER_PORT = 6379;

/** `host:port` (`[::1]:26379` for IPv6), the port optional; undefined when it is not one. */
export function parseEndpoint(text: string, defaultPort: number): RedisEndpoint | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match) return undefined;
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1] ?? match[2] ?? '', port };
}

const EndpointObjectSchema = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65_535).optional() }).strict();

/** `"host:port"` or `{ host, port }` (one message, not a union's "invalid input"). */
const endpoint = (defaultPort: number) =>
  z.unknown().transform((value, ctx): RedisEndpoint => {
    if (typeof value === 'string') {
      const parsed = parseEndpoint(value, defaultPort);
      if (parsed) return parsed;
    } else {
      const object = EndpointObjectSchema.safeParse(value);
      if (object.success) return { host: object.data.host, port: object.data.port ?? defaultPort };
    }
    ctx.addIssue({ code: 'custom', message: 'expected host:port' });
    return z.NEVER;
  });

/** The servers as a mapping (`redis:` in `intrabot.yaml`): Sentinel or Cluster. */
export const RedisServersSchema = z
  .object({
    /** The sentinels to ask where the primary is (any one that answers will do; list them all). */
    sentinels: z.array(endpoint(SENTINEL_PORT)).min(1, 'list at least one sentinel').optional(),
    /** The master name the sentinels watch (`sentinel monitor <name> ...`). */
    name: z.string().min(1).optional(),
    /** Cluster nodes to start from. */
    cluster: z.array(endpoint(CLUSTER_PORT)).min(1, 'list at least one cluster node').optional(),
    username: z.string().min(1).optional(),
    /** The data nodes' password. */
    password: z.string().min(1).optional(),
    /** The sentinels' own password, when they ask for one. */
    sentinel_password: z.string().min(1).optional(),
    db: z.number().int().min(0).optional(),
    tls: z.boolean().default(false),
  })
  .strict()
  .superRefine((servers, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((servers.sentinels === undefined) === (servers.cluster === undefined)) {
      problem(servers.sentinels ? 'cluster' : 'sentinels', 'give either sentinels (Redis Sentinel) or cluster (Redis Cluster), not both and not neither');
      return;
    }
    if (servers.sentinels && servers.name === undefined) problem('name', 'the master name the sentinels watch is required with sentinels');
    if (servers.cluster) {
      for (const field of ['name', 'sentinel_password'] as const) if (servers[field] !== undefined) problem(field, 'only with sentinels');
      if (servers.db !== undefined && servers.db !== 0) problem('db', 'Redis Cluster has database 0 only');
    }
  });
export type RedisServers = z.input<typeof RedisServersSchema>;

/** How many replicas must confirm an accept (`WAIT`), and for how long one is waited for. */
export const MinReplicasSchema = z.number().int().min(0).max(16);
export const WaitTimeoutMsSchema = z.number().int().min(1).max(60_000);
export const DEFAULT_WAIT_TIMEOUT_MS = 1_000;

/**
 * A `redis+sentinel://` or `redis+cluster://` URL read into its servers; any other URL is one server's,
 * for ioredis as it is. The problem, when there is one, never repeats the URL (it may carry a password).
 *
 * @example parseRedisUrl('redis+sentinel://:pw@s1:26379,s2/mymaster?db=2') // { ok: true, connection: { mode: 'sentinel', name: 'mymaster', db: 2, ... } }
 */
export function parseRedisUrl(url: string): { ok: true; connection: RedisConnection } | { ok: false; problem: string } {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined || !scheme.includes('+')) return { ok: true, connection: { mode: 'single', url } };
  const mode = scheme.endsWith('+sentinel') ? 'sentinel' : scheme.endsWith('+cluster') ? 'cluster' : undefined;
  const tls = scheme.startsWith('rediss+');
  if (!mode || !(scheme.startsWith('redis+') || tls)) {
    return { ok: false, problem: `expected redis://, rediss://, redis+sentinel:// or redis+cluster:// (got a ${scheme}:// URL)` };
  }
  const match = /^[^:]+:\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/.exec(url);
  if (!match) return { ok: false, problem: `expected ${shape(mode)}` };
  const [, userinfo, hostList = '', path = '', query = ''] = match;
  const credentials = readUserinfo(userinfo);
  const endpoints = hostList.split(',').map((text) => parseEndpoint(decode(text), mode === 'sentinel' ? SENTINEL_PORT : CLUSTER_PORT));
  if (hostList === '' || endpoints.some((e) => e === undefined))
    return { ok: false, problem: `every host must be host:port, separated by commas: ${shape(mode)}` };
  const params = new URLSearchParams(query);
  const known = mode === 'sentinel' ? ['db', 'sentinel_password'] : [];
  const unknown = [...params.keys()].find((key) => !known.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      problem: `unknown parameter "${unknown}" (${mode === 'sentinel' ? 'db and sentinel_password are known' : 'a cluster URL takes none'})`,
    };
  }
  const nodes = endpoints as RedisEndpoint[];
  if (mode === 'cluster') {
    if (path !== '' && path !== '/') return { ok: false, problem: `a cluster URL has no path (Redis Cluster has database 0 only): ${shape(mode)}` };
    return { ok: true, connection: { mode, nodes, ...credentials, tls } };
  }
  const name = decode(path.replace(/^\//, ''));
  if (name === '' || name.includes('/')) return { ok: false, problem: `the path is the master name the sentinels watch: ${shape(mode)}` };
  const dbText = params.get('db') ?? '0';
  if (!/^\d{1,2}$/.test(dbText)) return { ok: false, problem: `db must be a database number (got "${dbText}")` };
  const sentinelPassword = params.get('sentinel_password') ?? undefined;
  return { ok: true, connection: { mode, sentinels: nodes, name, ...credentials, sentinelPassword, db: Number(dbText), tls } };
}

function shape(mode: 'sentinel' | 'cluster'): string {
  return mode === 'sentinel'
    ? 'redis+sentinel://[:password@]host1:26379,host2:26379/<master-name>[?db=N]'
    : 'redis+cluster://[:password@]host1:7000,host2:7001';
}

function readUserinfo(userinfo: string | undefined): { username?: string; password?: string } {
  if (!userinfo) return {};
  const sep = userinfo.indexOf(':');
  const [user, password] = sep < 0 ? [userinfo, ''] : [userinfo.slice(0, sep), userinfo.slice(sep + 1)];
  return { ...(user ? { username: decode(user) } : {}), ...(password ? { password: decode(password) } : {}) };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The servers of a mapping, as `parseRedisUrl` answers for a URL. */
export function connectionOfServers(servers: z.output<typeof RedisServersSchema>): RedisConnection {
  const { username, password, tls } = servers;
  if (servers.cluster) return { mode: 'cluster', nodes: servers.cluster, username, password, tls };
  return {
    mode: 'sentinel',
    sentinels: servers.sentinels ?? [],
    name: servers.name ?? '',
    username,
    password,
    sentinelPassword: servers.sentinel_password,
    db: servers.db ?? 0,
    tls,
  };
}

/** A Redis URL in any of the three shapes (for a setting's schema: the problem named with the setting). */
export const RedisUrlSchema = z
  .string()
  .min(1)
  .superRefine((url, ctx) => {
    const parsed = parseRedisUrl(url);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });

export const RedisStoreConfigSchema = z
  .object({
    kind: z.literal('redis'),
    /** One of `url` and `servers`. */
    url: RedisUrlSchema.optional(),
    servers: RedisServersSchema.optional(),
    // braces would begin a Cluster hash tag inside the prefix (keys.ts)
    prefix: z
      .string()
      .min(1)
      .regex(/^[^{}]+$/, 'no { or }')
      .default('intrabot'),
    /** Replicas that must confirm each accept before it is acknowledged (`WAIT`); 0: none waited for. */
    minReplicas: MinReplicasSchema.default(0),
    waitTimeoutMs: WaitTimeoutMsSchema.default(DEFAULT_WAIT_TIMEOUT_MS),
  })
  .superRefine((config, ctx) => {
    if ((config.url === undefined) === (config.servers === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either url or servers (Sentinel or Cluster), one of them' });
    }
  });
export type RedisStoreConfig = z.input<typeof RedisStoreConfigSchema>;

/** The connection a checked config names. */
export function redisConnectionOf(config: z.output<typeof RedisStoreConfigSchema>): RedisConnection {
  if (config.servers) return connectionOfServers(config.servers);
  const parsed = parseRedisUrl(config.url ?? '');
  // the schema has checked it
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.connection;
}
