import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';

/** A runtime and its sandbox, the runtime mounted on an app of the test's own whose log lines the test reads (JSON). */
export interface LoggedRuntime {
  lines: Record<string, unknown>[];
  sandbox: Sandbox;
  runtime: Runtime;
  close(): Promise<void>;
}

/** Starts the sandbox (demo seed) and a runtime of the bots in `botsDir` on `clock`, logging at `level`. */
export async function startLoggedRuntime(options: { clock: AdjustableClock; botsDir: string; only?: string[]; level: string }): Promise<LoggedRuntime> {
  const lines: Record<string, unknown>[] = [];
  const sandbox = await createSandbox({ clock: options.clock, port: 0, seed: 'demo' });
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-logged-'));
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: options.level, stream } });
  const env = {
    INTRABOT_PORT: '0',
    INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: resolve(options.botsDir),
    INTRABOT_REDIS_URL: '',
  };
  const runtime = await buildRuntime({
    config: loadConfig({ env, cwd: dataDir }),
    clock: options.clock,
    env,
    app,
    ...(options.only ? { only: options.only } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await runtime.activate();
  return {
    lines,
    sandbox,
    runtime,
    async close() {
      await runtime.close();
      await runtime.app.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
