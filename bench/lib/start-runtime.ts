import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { sqliteStorePath } from '../../src/store/open-store';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { openRedisStore } from '../../src/store/redis/redis-store';
import { resolveSecretKey } from '../../src/store/secret-key';
import { openSqliteStore, type SqliteStoreStats } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { dropSchema } from './postgres';
import { connectRedis, deleteRedisKeys } from './redis';

export interface BenchRuntime {
  sandbox: Sandbox;
  runtime: Runtime;
  /** The runtime's store, opened here. */
  store: Store;
  /** The SQLite store's batch counters (none on Redis or PostgreSQL). */
  inboxStats: SqliteStoreStats | undefined;
  /** Server-side time of each `/hooks` answer (Fastify's `elapsedTime`, ms), appended as they come. */
  ackTimes: number[];
  close(): Promise<void>;
}

export interface BenchRuntimeOptions {
  botsDir: string;
  bots: string[];
  /** SQLite only: another inbox batch window than the store's default. */
  inboxBatchWindowMs?: number;
  /** The Redis store instead of SQLite, under a prefix of this run's own (its keys are deleted on close). */
  redis?: { url: string; prefix: string };
  /** The PostgreSQL store instead of SQLite, in a schema of this run's own (dropped on close). */
  postgres?: { url: string; schema: string };
}

/**
 * A sandbox and a runtime as `startPair` wires them (`src/testing/start-pair.ts`), except that the
 * store is opened here, with the same defaults `openRuntimeStore` uses unless `inboxBatchWindowMs`
 * is given: the bench reads the SQLite store's batch counters, and can try another batch window to
 * test a fix without changing the runtime.
 */
export async function startBenchRuntime(options: BenchRuntimeOptions): Promise<BenchRuntime> {
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
    INTRABOT_DATABASE_URL: '',
  };
  const config = loadConfig({ env, cwd: dataDir });
  const secretKey = await resolveSecretKey({ env, mode: config.mode, dataDir: config.data_dir });
  const sqlite =
    options.redis || options.postgres
      ? undefined
      : openSqliteStore({
          path: sqliteStorePath(config.data_dir),
          clock,
          secretKey,
          ...(options.inboxBatchWindowMs === undefined ? {} : { inboxBatchWindowMs: options.inboxBatchWindowMs }),
        });
  let store: Store | undefined = sqlite;
  let runtime: Runtime | undefined;
  const close = async (): Promise<void> => {
    await runtime?.close().catch(() => undefined);
    await store?.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (options.redis) await deleteKeysUnder(options.redis.url, options.redis.prefix);
    if (options.postgres) await dropSchema(options.postgres.url, options.postgres.schema);
  };
  const ackTimes: number[] = [];
  try {
    store ??= options.postgres
      ? await openPostgresStore({ url: options.postgres.url, schema: options.postgres.schema, clock, secretKey })
      : await openRedisStore({ url: options.redis!.url, prefix: options.redis!.prefix, clock, secretKey });
    runtime = await buildRuntime({ config, clock, env, store, only: options.bots, pollMs: 100, handlerTimeoutMs: 30_000 });
    runtime.app.addHook('onResponse', (request, reply, done) => {
      if (request.url.startsWith('/hooks/')) ackTimes.push(reply.elapsedTime);
      done();
    });
    await runtime.start();
  } catch (error) {
    await close();
    throw error;
  }
  return { sandbox, runtime, store, inboxStats: sqlite?.stats, ackTimes, close };
}

async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const connection = await connectRedis(url);
  if (!('redis' in connection)) return;
  try {
    await deleteRedisKeys(connection.redis, `${prefix}:*`);
  } finally {
    connection.redis.disconnect();
  }
}
