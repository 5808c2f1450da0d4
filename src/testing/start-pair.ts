import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AdjustableClock } from '../clock';
import { buildRuntime, type Runtime } from '../runtime/build-runtime';
import { loadConfig } from '../runtime/config';
import { createSandbox, type Sandbox } from '../sandbox/sandbox';
import type { RunRecord } from '../scheduler/run-record';
import type { Store } from '../store/store';
import type { SeedName } from '../sandbox/module';
import { SandboxControl } from './sandbox-control';

export interface StartPairOptions {
  /** Bots to load from `botsDir` (default: every bot). */
  bots?: readonly string[];
  /** Default `bots` in the working directory. */
  botsDir?: string;
  seed?: SeedName;
  /** Where the shared clock starts (default: now). */
  start?: number;
  /** Extra environment for `${env:...}` references in manifests. */
  env?: Record<string, string>;
  handlerTimeoutMs?: number;
  /** Log level of the runtime (default `silent`; `INTRABOT_TEST_LOG` overrides). */
  logLevel?: string;
  /** Poll the sandbox instead of receiving its deliveries (as `intrabot dev --poll`). */
  poll?: { intervalMs: number };
  /**
   * An open store for the runtime (a Redis store, say), kept across `restartRuntime` and closed by the
   * caller. Default: a SQLite file in the pair's temporary folder.
   */
  store?: Store;
}

export interface Pair {
  sandbox: Sandbox;
  runtime: Runtime;
  clock: AdjustableClock;
  /** The sandbox's control API and read-backs, plus `waitFor`. */
  platform: SandboxControl;
  /**
   * Stops the runtime and starts a new one on the same store (a restart; the sandbox keeps running),
   * running `whileDown` in between.
   */
  restartRuntime(whileDown?: () => Promise<void>): Promise<Runtime>;
  /**
   * Runs a bot's job now on the sandbox tenant, as `intrabot run` does (recorded, under its overlap
   * policy and time limit), and resolves once it has ended; rejects with the job's error when it failed
   * or timed out. `slotMs` is the cron slot the job sees (default: now on the pair's clock).
   */
  runJob(bot: string, job: string, options?: { slotMs?: number }): Promise<RunRecord>;
  close(): Promise<void>;
}

/**
 * A sandbox and a runtime with chosen bots, sharing one clock, over real HTTP — what the framework's
 * own tests use, and what `intrabot new` scaffolds a test with.
 *
 * @example
 * const pair = await startPair({ bots: ['ops'] });
 * const post = await pair.platform.employeePost(10, { wall_id: 1, body: '/oncall' });
 * const comments = await pair.platform.waitFor(() => pair.platform.commentsOn(post.id), (c) => c.length > 0);
 * await pair.close();
 */
export async function startPair(options: StartPairOptions = {}): Promise<Pair> {
  const clock = new AdjustableClock(options.start === undefined ? {} : { start: options.start });
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-pair-'));
  const sandbox = await createSandbox({ clock, port: 0, seed: options.seed ?? 'demo' });
  const sandboxPort = new URL(sandbox.baseUrl).port;
  const env = {
    ...process.env,
    ...options.env,
    INTRABOT_PORT: '0',
    INTRABOT_SANDBOX_PORT: sandboxPort,
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: resolve(options.botsDir ?? 'bots'),
    INTRABOT_LOG_LEVEL: process.env.INTRABOT_TEST_LOG ?? options.logLevel ?? 'silent',
    INTRABOT_BASE_URL: '',
    INTRABOT_TOKEN: '',
    INTRABOT_REDIS_URL: '',
  };
  const config = loadConfig({ env, cwd: dataDir });
  // the same runtime every time, a restart included
  const build = (): Promise<Runtime> =>
    buildRuntime({
      config,
      clock,
      env,
      pollMs: 100,
      ...(options.store ? { store: options.store } : {}),
      ...(options.bots ? { only: options.bots } : {}),
      ...(options.handlerTimeoutMs ? { handlerTimeoutMs: options.handlerTimeoutMs } : {}),
      ...(options.poll ? { poll: options.poll } : {}),
    });
  const runtime = await build();
  try {
    await runtime.start();
  } catch (error) {
    await runtime.close().catch(() => undefined);
    await sandbox.close();
    throw error;
  }
  const pair: Pair = {
    sandbox,
    runtime,
    clock,
    platform: new SandboxControl(sandbox.baseUrl),
    async restartRuntime(whileDown) {
      await pair.runtime.close();
      await whileDown?.();
      pair.runtime = await build();
      await pair.runtime.start();
      return pair.runtime;
    },
    async runJob(bot, job, runOptions = {}) {
      const record = await pair.runtime.runJob(config.tenants[0]!.id, bot, job, runOptions);
      if (record.outcome !== 'ok') throw new Error(`job ${bot}/${job}: ${record.outcome}${record.error ? `: ${record.error}` : ''}`);
      return record;
    },
    async close() {
      await pair.runtime.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return pair;
}
