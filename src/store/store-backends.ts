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
