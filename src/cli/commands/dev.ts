import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { AdjustableClock } from '../../clock';
import { buildRuntime, type Runtime } from '../../runtime/build-runtime';
import type { RuntimeConfig } from '../../runtime/config/config';
import { createSandbox, type Sandbox } from '../../sandbox/sandbox';
import type { CliCommand } from '../command';
import { cliConfig } from '../runtime-client';
import { messageOf, paint, processIo, type CliIo } from '../output';

const USAGE = 'dev [--poll]';

export interface DevDeps extends CliIo {
  /** Resolves when dev should stop (SIGINT/SIGTERM in the CLI). */
  stopped: Promise<void>;
  /** Told once the sandbox and the first runtime are up (tests drive the session with it). */
  onReady?(session: DevSession): void;
  /** Quiet time after the last file change before reloading. Default 300 ms. */
  debounceMs?: number;
  /** Called in the gap of a reload, once the old runtime is closed and before the new one starts. */
  onRestarting?(): Promise<void> | void;
}

/**
 * The sandbox (in sandbox mode) and the store stay up; the runtime object is rebuilt when a bot's
 * files change. While it restarts, nothing is lost: deliveries already accepted wait in the durable
 * inbox and are handled by the new runtime; a bot that fails to reload (a syntax error) keeps its
 * route, and what is delivered to it waits in the inbox, held, until a reload loads it again; a delivery refused while the port is closed is retried
 * by the platform (spec: Outgoing webhooks, retries after 1 and 10 minutes), and posts and comments
 * are also recovered by the new runtime when it starts (deduplicated, so handled once).
 * Only each bot's `index.ts` is imported afresh: modules it imports stay cached until dev restarts.
 */
export class DevSession {
  private current: Runtime | undefined;
  private reloading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private version = 0;
  private consoleShown = false;
  /** Completed reloads (the first start is not one). */
  reloads = 0;

  constructor(
    private readonly deps: {
      config: RuntimeConfig;
      clock: AdjustableClock;
      io: CliIo;
      onRestarting?: (() => Promise<void> | void) | undefined;
      poll?: { intervalMs: number };
    },
    readonly sandbox: Sandbox | undefined,
  ) {}

  get runtime(): Runtime | undefined {
    return this.current;
  }

  /** Builds and starts a runtime with freshly imported bot modules. */
  async start(): Promise<void> {
    const { config, clock, io } = this.deps;
    this.version += 1;
    const runtime = await buildRuntime({
      config,
      clock,
      env: io.env,
      botsVersion: String(this.version),
      reportsLoadFailures: true,
      ...(this.deps.poll ? { poll: this.deps.poll } : {}),
    });
    try {
      const url = await runtime.start();
      this.current = runtime;
      this.describe(runtime, url);
    } catch (error) {
      await runtime.close().catch(() => undefined);
      throw error;
    }
  }

  /** Restarts the runtime; reloads asked for while one runs are folded into one more. */
  reload(reason: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = this.restart(reason).finally(() => {
      this.reloading = undefined;
      if (this.again) {
        this.again = false;
        void this.reload('more changes').catch((error: unknown) => this.deps.io.stderr(`reload failed: ${messageOf(error)}\n`));
      }
    });
    return this.reloading;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reloading;
    await this.current?.close();
    this.current = undefined;
  }

  private async restart(reason: string): Promise<void> {
    const { io } = this.deps;
    const c = paint(io);
    io.stdout(`${c.cyan('reloading')} (${reason})\n`);
    // reloads run unawaited from the file watcher: a failure here is reported, never thrown
    try {
      await this.current?.close();
    } catch (error) {
      io.stderr(`${c.red('closing the runtime failed')}: ${messageOf(error)}\n`);
    }
    this.current = undefined;
    try {
      await this.deps.onRestarting?.();
      await this.start();
      this.reloads += 1;
    } catch (error) {
      io.stderr(`${c.red('reload failed')}: ${messageOf(error)}; fix it and save again\n`);
    }
  }

  private describe(runtime: Runtime, url: string): void {
    const { io } = this.deps;
    const c = paint(io);
    const { failures, bots } = runtime.inspect();
    for (const failure of failures) io.stderr(`${c.red('bot not loaded')}: ${failure.error.message}\n`);
    // said each time, so a developer who broke a bot knows the posts made meanwhile are not lost
    if (failures.length > 0) io.stderr(`  its deliveries wait in the inbox until it loads again: fix it and save\n`);
    const names = bots.map((b) => b.name).join(', ') || 'none';
    io.stdout(`${c.green('runtime')} on ${url}  bots: ${names}\n`);
    if (!this.consoleShown) io.stdout(`console: ${url}/console/  (deliveries, the outbox, jobs and alerts as they happen)\n`);
    this.consoleShown = true;
  }
}

/**
 * Files under the bots folder that are not a bot's source: tests, dotfiles, installed packages and
 * SQLite files (a data directory kept beside the bots would otherwise reload them on every commit).
 */
const NOT_SOURCE = /(^|\/)(\.|node_modules\/)|\.test\.ts$|\.(db|sqlite3?)(-wal|-shm|-journal)?$/;

/** Calls `onChange` once things are quiet again after changes under `dir` to a bot's own files. */
export function watchBots(dir: string, debounceMs: number, onChange: (file: string) => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  let last = '';
  return watch(dir, { recursive: true }, (_event, file) => {
    const name = file?.toString() ?? '';
    if (NOT_SOURCE.test(name)) return;
    last = name;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(last), debounceMs);
  });
}

/** `intrabot dev`: like `start`, and a bot whose files change is reloaded. */
export async function runDev(argv: string[], deps: DevDeps): Promise<number> {
  let poll = false;
  try {
    poll = parseArgs({ args: argv, strict: true, options: { poll: { type: 'boolean' } } }).values.poll ?? false;
  } catch (error) {
    deps.stderr(`intrabot dev: ${messageOf(error)}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(deps, 'dev');
  if (!config) return 1;
  const clock = new AdjustableClock();
  mkdirSync(config.data_dir, { recursive: true });
  mkdirSync(config.bots_dir, { recursive: true });
  let sandbox: Sandbox | undefined;
  let session: DevSession | undefined;
  let watcher: FSWatcher | undefined;
  try {
    if (config.mode === 'sandbox') sandbox = await createSandbox({ clock, port: config.sandbox_port, dataFile: join(config.data_dir, 'sandbox.db') });
    else if (!config.public_url && !poll)
      deps.stderr(paint(deps).yellow('warning: no INTRABOT_PUBLIC_URL: the tenant cannot deliver events to this machine\n'));
    if (sandbox) deps.stdout(`sandbox platform on ${sandbox.baseUrl}  (token: ${sandbox.token})\n`);
    // --poll: no webhook endpoints; new posts and comments are listed every 10 s instead
    session = new DevSession({ config, clock, io: deps, onRestarting: deps.onRestarting, ...(poll ? { poll: { intervalMs: 10_000 } } : {}) }, sandbox);
    await session.start();
    const s = session;
    watcher = watchBots(config.bots_dir, deps.debounceMs ?? 300, (file) => {
      void s
        .reload(`${relative(deps.cwd, join(config.bots_dir, file))} changed`)
        .catch((error: unknown) => deps.stderr(`reload failed: ${messageOf(error)}\n`));
    });
    deps.stdout(`watching ${relative(deps.cwd, config.bots_dir) || config.bots_dir} for changes (Ctrl-C to stop)\n`);
    deps.stdout('a bot that fails to reload keeps its webhook: its deliveries wait in the inbox until a save loads it again\n');
    deps.onReady?.(session);
    await deps.stopped;
    return 0;
  } catch (error) {
    deps.stderr(`intrabot dev: ${messageOf(error)}\n`);
    return 1;
  } finally {
    watcher?.close();
    await session?.close();
    await sandbox?.close();
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const command: CliCommand = {
  name: 'dev',
  usage: USAGE,
  summary: 'Like start, and reload a bot when its files change (deliveries wait in the inbox meanwhile, and while a bot fails to load)',
  run: (args) => runDev(args, { ...processIo(), stopped: untilSignal() }),
};
