import { z } from 'zod';
import { InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';
import type { Store } from './store';
import type { StoreDeps } from './open-store';

/**
 * How a backend is opened: the schema of its config (an object whose `kind` is the backend's name) and
 * the function that opens it, runs its migrations and returns the assembled store (`assembleStore`).
 */
export interface StoreBackendFactory<Config extends { kind: string } = { kind: string }> {
  kind: string;
  configSchema: z.ZodType<Config, unknown>;
  open(config: Config, deps: StoreDeps): Promise<Store>;
  /**
   * Brings the backend's schema up to date without opening a store (`intrabot migrate`), answering the
   * version before and after. Without it, migrating is opening: the backend migrates at open.
   */
  migrate?(config: Config, deps: StoreDeps): Promise<MigrationResult>;
}

/** What `intrabot migrate` did: the schema version found and the one left (equal when there was nothing to do). */
export interface MigrationResult {
  from: number;
  to: number;
}

const FACTORIES = new Map<string, StoreBackendFactory>();

/**
 * Makes a backend openable by `openStore` under its `kind`. A backend's module registers itself; the
 * built-in ones are registered in `builtin-backends.ts`. Registering a kind twice replaces it (a test's
 * instrumented backend, say).
 *
 * @example
 * registerStoreBackend({ kind: 'memory', configSchema: z.object({ kind: z.literal('memory') }), open: (_c, deps) => openMemory(deps) });
 */
export function registerStoreBackend<Config extends { kind: string }>(factory: StoreBackendFactory<Config>): void {
  FACTORIES.set(factory.kind, factory as unknown as StoreBackendFactory);
}

/** The registered kinds, sorted (for errors and `intrabot doctor`). */
export function storeBackendKinds(): string[] {
  return [...FACTORIES.keys()].sort();
}

const KindSchema = z.object({ kind: z.string().min(1) });

/** A store config checked against its backend's schema; an unknown kind names the ones there are. */
export function storeFactoryFor(config: unknown): { factory: StoreBackendFactory; config: { kind: string } } {
  const { kind } = parseOrThrow(KindSchema, config, 'store');
  const factory = FACTORIES.get(kind);
  if (!factory) throw new InvalidInputError('store.kind', `store.kind: "${kind}" is not a store backend (expected one of ${storeBackendKinds().join(', ')})`);
  return { factory, config: parseOrThrow(factory.configSchema, config, 'store') };
}

/**
 * Brings the configured store's schema up to date (`intrabot migrate`): the backend's own `migrate`, or,
 * for a backend that migrates whenever it opens, one open and close.
 */
export async function migrateStore(config: unknown, deps: StoreDeps): Promise<MigrationResult & { kind: string }> {
  const { factory, config: checked } = storeFactoryFor(config);
  if (factory.migrate) return { kind: factory.kind, ...(await factory.migrate(checked, deps)) };
  const store = await factory.open(checked, deps);
  try {
    const version = await store.schemaVersion();
    return { kind: factory.kind, from: version, to: version };
  } finally {
    await store.close();
  }
}
