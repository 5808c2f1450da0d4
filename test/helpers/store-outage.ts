import Database from 'better-sqlite3';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Store } from '../../src/store';

/** A server the test can take away from one runtime and give back (`cut`, `restore`), at `url`. */
export interface ServerOutage {
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP forwarder in front of Redis, so a test can take "Redis" away from one runtime and give it back,
 * on a shared machine where the real server must keep running for everyone else.
 */
export function redisOutage(redisUrl: string): Promise<ServerOutage> {
  return forwarderOutage(redisUrl, 6379);
}

/** The same in front of PostgreSQL: every connection through it is cut, and new ones refused, until `restore`. */
export function postgresOutage(databaseUrl: string): Promise<ServerOutage> {
  return forwarderOutage(databaseUrl, 5432);
}

async function forwarderOutage(serverUrl: string, defaultPort: number): Promise<ServerOutage> {
  const upstream = new URL(serverUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    if (server) return;
    server = createServer((client) => {
      const remote = connect(Number(upstream.port || defaultPort), upstream.hostname);
      for (const socket of [client, remote]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(remote).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  const cut = async (): Promise<void> => {
    if (!server) return;
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await listen();
  const forwarded = new URL(serverUrl);
  forwarded.hostname = '127.0.0.1';
  forwarded.port = String(port);
  return { url: forwarded.toString(), cut, restore: listen, close: () => (server ? cut() : Promise.resolve()) };
}

/** Store members that hand out objects whose methods reach the backend. */
const PARTS = new Set<PropertyKey>(['inbox', 'outbox', 'claims', 'rate', 'secrets', 'provisioning']);

/**
 * A SQLite store whose every operation fails as a failing disk makes better-sqlite3 fail (SqliteError
 * `SQLITE_IOERR`) while `down` is set.
 */
export function sqliteOutage<S extends Store>(store: S): { store: S; down: boolean } {
  const state = { down: false } as { down: boolean; store: S };
  const wrapped = new WeakMap<object, object>();
  const failing = <T extends object>(object: T): T => {
    const known = wrapped.get(object);
    if (known) return known as T;
    const proxy = new Proxy(object, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (PARTS.has(prop) && typeof value === 'object' && value !== null) return failing(value);
        if (typeof value !== 'function' || prop === 'close') return value;
        const fn = value as (...args: unknown[]) => unknown;
        // a key-value space is made per call; its operations fail
        if (prop === 'kv') return (namespace: string) => failing(fn.call(target, namespace) as object);
        return (...args: unknown[]) => (state.down ? Promise.reject(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR')) : fn.apply(target, args));
      },
    });
    wrapped.set(object, proxy);
    return proxy;
  };
  state.store = failing(store);
  return state;
}
