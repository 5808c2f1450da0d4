import type { FastifyInstance } from 'fastify';
import { AdjustableClock } from '../clock';
import { buildSandboxApp } from './app';
import { SandboxContext } from './context';
import type { SandboxModule, SeedName } from './module';
import { SANDBOX_MODULES } from './modules';
import { SandboxDb } from './state/sandbox-db';

export interface SandboxOptions {
  /** The clock the sandbox runs on; under `npm start` the runtime shares it. Default: real time, adjustable. */
  clock?: AdjustableClock;
  /** SQLite file to keep state across restarts; omitted: memory only. */
  dataFile?: string;
  /** Seed used when the state is empty (a fresh sandbox). Default `demo`. */
  seed?: SeedName;
  /** For the `large` seed. */
  users?: number;
  port?: number;
  host?: string;
  modules?: readonly SandboxModule[];
}

export interface Sandbox {
  /**
   * The emulator's state, for intrabot's own tests; not part of the package's declarations (its SQLite
   * types would make consumers install intrabot's dev dependencies). Tests use the control API instead.
   * @internal
   */
  ctx: SandboxContext;
  app: FastifyInstance;
  clock: AdjustableClock;
  /** `http://127.0.0.1:<port>` once listening. */
  baseUrl: string;
  /** The platform token that holds every scope. */
  token: string;
  close(): Promise<void>;
}

/**
 * Starts the emulated platform on `host:port` (default 127.0.0.1, a random port when 0).
 *
 * @example
 * const sandbox = await createSandbox({ port: 0 });
 * const res = await fetch(`${sandbox.baseUrl}/api/open/v1/walls`, { headers: { authorization: `Bearer ${sandbox.token}` } });
 * await sandbox.close();
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? new AdjustableClock();
  const db = new SandboxDb(options.dataFile ? { file: options.dataFile } : {});
  const ctx = new SandboxContext(db, clock);
  const built = buildSandboxApp(ctx, options.modules ?? SANDBOX_MODULES);
  if (db.isEmpty) built.reset({ seed: options.seed ?? 'demo', ...(options.users ? { users: options.users } : {}) });

  const host = options.host ?? '127.0.0.1';
  await built.app.listen({ port: options.port ?? 4010, host });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4010);
  const ticker = setInterval(() => ctx.tick(), 1_000);
  ticker.unref();

  return {
    ctx,
    app: built.app,
    clock,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    token: 'svc_sandbox_token',
    async close() {
      clearInterval(ticker);
      await built.app.close();
      db.close();
    },
  };
}
