import Fastify, { type FastifyInstance } from 'fastify';
import type { Store } from '../../store/store';
import { guardStore } from '../../store/guard-store';
import type { RuntimeDeps } from '../build-runtime';
import { handleFrameworkError } from '../error-handler';
import { loggerOptions, OneLinePerRequest } from '../logger';
import { openRuntimeStore } from './open-runtime-store';
import { withSandboxEnv } from '../config/sandbox-env';

/** What every later step stands on: the environment bots read, the app and its logger, the store. */
export interface RuntimeBase {
  env: Readonly<Record<string, string | undefined>>;
  /** The app the runtime serves from: its own, or the host app given in `deps.app`. */
  host: FastifyInstance;
  store: Store;
  /** The store was opened here (and is closed with the runtime), not passed in. */
  ownsStore: boolean;
}

/**
 * Reads the environment (sandbox mode adds `sandbox.env`; connected mode never does), makes the app
 * (or takes the host's) and opens the store, guarded so an outage answers 503 with Retry-After on every
 * route (src/store/guard-store.ts).
 */
export async function openBase(deps: RuntimeDeps): Promise<RuntimeBase> {
  const { config, clock } = deps;
  const given = deps.env ?? process.env;
  const env = config.mode === 'sandbox' ? withSandboxEnv(given, deps.rootDir ?? process.cwd()) : given;
  // on close, connections are cut rather than waited for: a delivery cut before its 200 was not
  // acknowledged, so the platform retries it (and dedupe drops it if it was recorded after all)
  const host =
    deps.app ??
    Fastify({
      logger: loggerOptions(config.log_level),
      logController: new OneLinePerRequest(),
      bodyLimit: 1_048_576,
      forceCloseConnections: true,
      frameworkErrors: handleFrameworkError,
    });
  const store = guardStore(deps.store ?? (await openRuntimeStore(config, clock, env)));
  return { env, host, store, ownsStore: deps.store === undefined };
}
