import Database from 'better-sqlite3';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Store } from '../../src/store';

/**
 * A TCP forwarder in front of Redis, so a test can take "Redis" away from one runtime and give it back,
 * on a shared machine where the real server must keep running for everyone else.
 */
export async function redisOutage(redisUrl: string): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const upstream = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    if (server) return;
    server = createServer((client) => {
      const remote = connect(Number(upstream.port || 6379), upstream.hostname);
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
  const auth = upstream.username || upstream.password ? `${upstream.username}:${upstream.password}@` : '';
  return { url: `redis://${auth}127.0.0.1:${port}${upstream.pathname}`, cut, restore: listen, close: () => (server ? cut() : Promise.resolve()) };
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
