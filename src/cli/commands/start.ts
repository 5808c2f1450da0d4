import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AdjustableClock } from '../../clock';
import { loadConfig, type RuntimeConfig } from '../../runtime/config/config';
import { listenFailure, publicUrlFailure, startupMessage } from '../../runtime/start/start-failure';
import { buildRuntime, type Runtime } from '../../runtime/build-runtime';
import { createSandbox, type Sandbox } from '../../sandbox/sandbox';
import type { CliCommand } from '../command';
import { messageOf, processIo, type CliIo } from '../output';
import { printBanner } from '../start-banner';
import { startTracing, type TracingHandle, type TracingLogger } from '../../tracing';

const USAGE = 'start [--no-migrate]';

interface StartFlags {
  /** Leave the PostgreSQL schema as it is (`intrabot migrate` brings it up to date). */
  noMigrate: boolean;
}

/** `start` takes one flag and no arguments: anything else is a mistake worth stopping for, not ignoring. */
function readStartFlags(argv: string[]): StartFlags | string {
  try {
    const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { 'no-migrate': { type: 'boolean' } } });
    return { noMigrate: values['no-migrate'] ?? false };
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * `intrabot start`: the runtime, and in sandbox mode the emulated platform beside it on one shared
 * clock (advancing the sandbox's clock moves the runtime's too). Runs until SIGINT or SIGTERM.
 */
export async function runStart(argv: string[], io: CliIo): Promise<number> {
  const flags = readStartFlags(argv);
  if (typeof flags === 'string') {
    io.stderr(`intrabot start: ${flags}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  return serve(io, flags);
}

/** The runtime (and the sandbox beside it in sandbox mode) until a signal stops them. */
async function serve(io: CliIo, flags: StartFlags): Promise<number> {
  const started = await startAll(io, flags);
  if (typeof started === 'number') return started;
  const { runtime, sandbox, url, tracing } = started;
  printBanner(url, runtime, sandbox);
  collectStartupGarbage();

  const stop = async (signal: string): Promise<void> => {
    process.stdout.write(`\n${signal}: stopping...\n`);
    // everything acknowledged is already durable: a shutdown that hangs may be cut short safely
    setTimeout(() => {
      process.stderr.write('intrabot: shutdown took longer than 30 s; exiting\n');
      process.exit(1);
    }, 30_000).unref();
    await runtime.close();
    await sandbox?.close();
    await tracing.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return await new Promise<number>(() => {
    // runs until a signal stops it
  });
}

/**
 * Starts the sandbox (in sandbox mode) and the runtime; on a fatal error prints one message naming the
 * setting to fix (src/runtime/start/start-failure.ts), closes whatever was already listening and resolves to 1.
 */
async function startAll(
  io: CliIo,
  flags: StartFlags,
): Promise<{ runtime: Runtime; sandbox: Sandbox | undefined; url: string; tracing: TracingHandle } | number> {
  const fail = (error: unknown): number => {
    io.stderr(`intrabot start: ${startupMessage(error)}\n`);
    return 1;
  };
  let config: RuntimeConfig;
  try {
    // forStart: a missing public URL is listed with every other problem, not learnt on the next run
    config = loadConfig({ env: io.env, cwd: io.cwd, forStart: true });
  } catch (error) {
    return fail(error);
  }
  if (flags.noMigrate) config.database_migrate = false;
  // the same rule as `provision`: a connected tenant delivers to the public URL, so it must be given
  if (config.mode === 'connected' && !config.public_url) return fail(publicUrlFailure({ config, env: io.env }, 'missing'));
  const clock = new AdjustableClock();
  mkdirSync(config.data_dir, { recursive: true });
  let sandbox: Sandbox | undefined;
  let runtime: Runtime | undefined;
  try {
    // before the runtime is built, so its first requests are traced; off (nothing loaded) unless OTEL_* ask for it
    const tracing = await startTracing(io.env, cliTracingLogger(io));
    if (config.mode === 'sandbox') {
      // the sandbox keeps its own state in the data directory, so a restart restarts the runtime, not the "platform"
      sandbox = await createSandbox({ clock, port: config.sandbox_port, dataFile: join(config.data_dir, 'sandbox.db') }).catch((error: unknown) => {
        throw listenFailure(error, 'sandbox', { config, env: io.env }) ?? error;
      });
    }
    runtime = await buildRuntime({ config, clock, env: io.env });
    const url = await runtime.start();
    return { runtime, sandbox, url, tracing };
  } catch (error) {
    // nothing stays listening: the runtime's port, the sandbox's port, the store
    await runtime?.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
    return fail(error);
  }
}

/** Tracing says it is on, and what its exporter cannot send, on the console. */
function cliTracingLogger(io: CliIo): TracingLogger {
  return {
    info: (fields, message) => io.stdout(`intrabot: ${message}${typeof fields.endpoint === 'string' ? ` (${fields.endpoint})` : ''}\n`),
    warn: (_fields, message) => io.stderr(`intrabot: ${message}\n`),
  };
}

/**
 * One full collection once the runtime is up, when node runs with `--expose-gc` (as `npm start` and
 * the bin do): what start-up leaves behind (compiled modules' sources, the sandbox's seed, provisioning)
 * goes back to the system, so a fresh runtime's resident memory is its steady state, not start-up's peak.
 */
function collectStartupGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) setTimeout(gc, 200).unref();
}

export const command: CliCommand = {
  name: 'start',
  usage: USAGE,
  summary: 'Start the runtime (and the sandbox when no tenant is configured)',
  run: (args) => runStart(args, processIo()),
};
