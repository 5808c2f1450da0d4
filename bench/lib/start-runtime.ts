import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { sqliteStorePath } from '../../src/store/open-store';
import { resolveSecretKey } from '../../src/store/secret-key';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store';

export interface BenchRuntime {
  sandbox: Sandbox;
  runtime: Runtime;
  /** The runtime's SQLite store, opened here so its batch counters can be read. */
  store: SqliteStore;
  /** Server-side time of each `/hooks` answer (Fastify's `elapsedTime`, ms), appended as they come. */
  ackTimes: number[];
  close(): Promise<void>;
}

/**
 * A sandbox and a runtime as `startPair` wires them (`src/testing/start-pair.ts`), except that the
 * SQLite store is opened here, with the same defaults `openRuntimeStore` uses unless
 * `inboxBatchWindowMs` is given: the bench reads the store's batch counters, and can try another
 * batch window to test a fix without changing the runtime.
 */
export async function startBenchRuntime(options: { botsDir: string; bots: string[]; inboxBatchWindowMs?: number }): Promise<BenchRuntime> {
  const clock = new AdjustableClock();
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-bench-'));
  const sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
  const env = {
    ...process.env,
    INTRABOT_PORT: '0',
    INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: options.botsDir,
    INTRABOT_LOG_LEVEL: 'silent',
    INTRABOT_BASE_URL: '',
    INTRABOT_TOKEN: '',
    INTRABOT_REDIS_URL: '',
  };
  const config = loadConfig({ env, cwd: dataDir });
  const secretKey = await resolveSecretKey({ env, mode: config.mode, dataDir: config.data_dir });
  const store = openSqliteStore({
    path: sqliteStorePath(config.data_dir),
    clock,
    secretKey,
    ...(options.inboxBatchWindowMs === undefined ? {} : { inboxBatchWindowMs: options.inboxBatchWindowMs }),
  });
  const runtime = await buildRuntime({ config, clock, env, store, only: options.bots, pollMs: 100, handlerTimeoutMs: 30_000 });
  const ackTimes: number[] = [];
  runtime.app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith('/hooks/')) ackTimes.push(reply.elapsedTime);
    done();
  });
  const close = async (): Promise<void> => {
    await runtime.close().catch(() => undefined);
    await store.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await runtime.start();
  } catch (error) {
    await close();
    throw error;
  }
  return { sandbox, runtime, store, ackTimes, close };
}
