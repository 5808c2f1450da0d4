import type { Middleware } from '../bots/middleware';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AdjustableClock } from '../clock';
import { buildRuntime, type Runtime } from '../runtime/build-runtime';
import { loadConfig } from '../runtime/config/config';
import { createSandbox, type Sandbox } from '../sandbox/sandbox';
import type { RunRecord } from '../scheduler/run-record';
import type { Store } from '../store/store';
import type { SnsFetch } from '../alerts/sns/sns-fetch';
import type { SeedName } from '../sandbox/module';
import { botStore } from '../bots/create-bot-context';
import type { BotStore } from '../bots/context';
import type { SeedRefs } from '../sandbox/seed/seed-refs';
import { SandboxControl } from './sandbox-control';
import { settle, storeLiveWork, type SettleOptions } from './settle';

export interface StartPairOptions {
  /** Bots to load from `botsDir` (default: every bot). */
  bots?: readonly string[];
  /** Default `bots` in the working directory. */
  botsDir?: string;
  seed?: SeedName;
  /** Where the shared clock starts (default: now). */
  start?: number;
  /**
   * The shared clock itself, when the test made something on it first: a `store` judges leases and
   * claims on the clock it was opened with, so a store of its own opened for the pair must be opened on
   * the pair's clock, or a clock moved by the test makes the two disagree on what has expired.
   */
  clock?: AdjustableClock;
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
  /** Runtime-wide middleware (`buildRuntime({ middleware })`), around each bot's own `use`. */
  middleware?: readonly Middleware[];
  /** The runtime's GET of SNS certificates and confirmations (`buildRuntime({ snsFetch })`): a test serves its test certificate with it. */
  snsFetch?: SnsFetch;
}

export interface Pair {
  sandbox: Sandbox;
  runtime: Runtime;
  clock: AdjustableClock;
  /** The sandbox's control API and read-backs, plus `waitFor`. */
  platform: SandboxControl;
  /**
   * The seed's named ids, over HTTP (`GET /_sandbox/refs`): employees, managers, departments and groups,
   * walls, chat rooms by name, the demo achievements.
   *
   * @example
   * const refs = await pair.refs();
   * await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/hello' });
   */
  refs(): Promise<SeedRefs>;
  /**
   * Resolves once everything set in motion has played out: the sandbox has no delivery in flight, and
   * the runtime's inbox and outbox are empty (every event handled, every message sent), including the
   * events the bots' own messages fired. Use it before asserting that something did NOT happen.
   *
   * @example
   * await pair.platform.award(refs.achievements.draft_id, refs.employee_ids[0]!);
   * await pair.settle();
   * expect(await pair.platform.wallPosts(refs.company_wall_id)).toHaveLength(before);
   */
  settle(options?: SettleOptions): Promise<void>;
  /** The user id of a bot on the platform (provisioned at start). */
  botUserId(bot: string): number;
  /** A bot's own key-value store (what `ctx.store` reads and writes), for a test to look into. */
  botStore(bot: string, tenant?: string): BotStore;
  /**
   * Stops the runtime and starts a new one on the same store (a restart; the sandbox keeps running),
   * running `whileDown` in between.
   */
  restartRuntime(whileDown?: () => Promise<void>): Promise<Runtime>;
  /**
   * Runs a bot's job now on the sandbox tenant, as `intrabot run` does (recorded, under its overlap
   * policy and time limit), and resolves with its record once it has ended; rejects with the job's error
   * when it failed or timed out (a run skipped because the job is already running resolves, its outcome
   * `skipped-overlap`). `slotMs` is the cron slot the job sees (default: now on the pair's clock).
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
  const clock = options.clock ?? new AdjustableClock(options.start === undefined ? {} : { start: options.start });
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
    // the pair's bots are `bots` (all by default), whatever the shell running the tests exports
    INTRABOT_BOTS: '',
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
      ...(options.middleware ? { middleware: options.middleware } : {}),
      ...(options.snsFetch ? { snsFetch: options.snsFetch } : {}),
    });
  let runtime: Runtime | undefined;
  try {
    runtime = await build();
    await runtime.start();
  } catch (error) {
    await runtime?.close().catch(() => undefined);
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const platform = new SandboxControl(sandbox.baseUrl);
  const pair: Pair = {
    sandbox,
    runtime,
    clock,
    platform,
    refs: () => platform.refs(),
    settle: (settleOptions) =>
      settle(
        {
          settleDeliveries: () => platform.settleDeliveries(),
          advance: async (seconds) => {
            await platform.advance(seconds);
          },
          liveWork: () => storeLiveWork(pair.runtime.inspect().store, settleOptions?.bots),
        },
        settleOptions,
      ),
    botUserId(bot) {
      const id = pair.runtime
        .inspect()
        .provisionResults.map((r) => r.bots[bot]?.botUserId)
        .find((found) => found !== undefined);
      if (id === undefined) throw new Error(`botUserId: bot "${bot}" has no bot user (is it among the pair's bots?)`);
      return id;
    },
    botStore: (bot, tenant = 'sandbox') => botStore(pair.runtime.inspect().store.kv(`bot:${tenant}:${bot}`)),
    async restartRuntime(whileDown) {
      await pair.runtime.close();
      await whileDown?.();
      pair.runtime = await build();
      await pair.runtime.start();
      return pair.runtime;
    },
    async runJob(bot, job, runOptions = {}) {
      const record = await pair.runtime.runJob(config.tenants[0]!.id, bot, job, runOptions);
      if (record.outcome === 'failed' || record.outcome === 'timeout')
        throw new Error(`job ${bot}/${job}: ${record.outcome}${record.error ? `: ${record.error}` : ''}`);
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
