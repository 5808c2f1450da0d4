import { asStoreError } from './store-errors';
import type { Store } from './store';

const GUARDED = Symbol('intrabot.guardedStore');

type AnyFunction = (...args: unknown[]) => unknown;

/** Store members that hand out objects whose methods reach the backend. */
const PARTS = new Set<PropertyKey>(['inbox', 'outbox', 'claims', 'rate', 'secrets', 'provisioning']);

/**
 * The store as the runtime uses it: every operation that fails in the backend fails with
 * `store_unavailable` (`asStoreError`), whatever the store and the driver, so each route maps a store
 * outage to 503 with Retry-After through the one error handler instead of a 500. Everything else (the
 * SQLite store's `db`, the Redis store's `redis`, `kind`...) passes through. Guarding twice is a no-op.
 *
 * @example
 * const store = guardStore(await openStore(config, deps));
 * await store.kv('bot:kudos').get('x'); // a Redis that went away: StoreUnavailableError
 */
export function guardStore<S extends Store>(store: S): S {
  if ((store as unknown as Record<symbol, unknown>)[GUARDED]) return store;
  const parts = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      if (prop === GUARDED) return true;
      const value: unknown = Reflect.get(target, prop, target);
      if (PARTS.has(prop) && typeof value === 'object' && value !== null) {
        if (!parts.has(prop)) parts.set(prop, guardObject(value));
        return parts.get(prop);
      }
      // a key-value space is made per call: guarded as it is handed out
      if (prop === 'kv' && typeof value === 'function') return (namespace: string) => guardObject(guardCall(value as AnyFunction, target)(namespace) as object);
      // closing is not an outage
      if (prop === 'close' || typeof value !== 'function') return value;
      return guardCall(value as AnyFunction, target);
    },
  });
}

function guardObject<T extends object>(object: T): T {
  const calls = new Map<PropertyKey, unknown>();
  return new Proxy(object, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!calls.has(prop)) calls.set(prop, guardCall(value as AnyFunction, target));
      return calls.get(prop);
    },
  });
}

function guardCall(fn: AnyFunction, self: unknown): AnyFunction {
  return (...args) => {
    let result: unknown;
    try {
      result = Reflect.apply(fn, self, args);
    } catch (error) {
      throw asStoreError(error);
    }
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(asStoreError(error))) : result;
  };
}
