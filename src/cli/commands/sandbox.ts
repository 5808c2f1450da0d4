import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createSandbox, type Sandbox } from '../../sandbox/sandbox';
import { parseOrThrow } from '../../validation';
import type { CliCommand } from '../command';

const USAGE = 'sandbox [--port 4010] [--data FILE] [--seed demo|empty|large] [--users N]';

/** What `intrabot sandbox` accepts (flags first, then `INTRABOT_SANDBOX_PORT`, then 4010). */
export const SandboxArgsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65_535),
  data: z.string().min(1).optional(),
  seed: z.enum(['demo', 'empty', 'large']).default('demo'),
  users: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type SandboxArgs = z.infer<typeof SandboxArgsSchema>;

/** What the command reads and writes; the CLI passes the process, tests their own. */
export interface SandboxCommandDeps {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves when the sandbox should stop (SIGINT/SIGTERM in the CLI). */
  stopped: Promise<void>;
  /** Told once the sandbox listens (tests use it to talk to it). */
  onReady?(sandbox: Sandbox): void;
}

export function parseSandboxArgs(args: string[], env: SandboxCommandDeps['env']): SandboxArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { port: { type: 'string', short: 'p' }, data: { type: 'string' }, seed: { type: 'string' }, users: { type: 'string' } },
  });
  if (positionals.length > 0) throw new TypeError(`unexpected argument "${positionals[0]}"`);
  return parseOrThrow(
    SandboxArgsSchema,
    {
      port: values.port ?? env.INTRABOT_SANDBOX_PORT ?? 4010,
      data: values.data,
      seed: values.seed,
      users: values.users,
    },
    'sandbox',
  );
}

/**
 * Serves the emulated platform alone until `deps.stopped` resolves. State lives in memory, or in the
 * SQLite file given with `--data`, where it survives restarts (the seed applies to a fresh file only).
 */
export async function serveSandbox(args: SandboxArgs, deps: SandboxCommandDeps): Promise<void> {
  const sandbox = await createSandbox({
    port: args.port,
    seed: args.seed,
    ...(args.data ? { dataFile: args.data } : {}),
    ...(args.users ? { users: args.users } : {}),
  });
  const state = args.data ? `kept in ${args.data}` : 'in memory (lost on exit; use --data FILE to keep it)';
  deps.stdout(
    [
      `intrabot sandbox listening on ${sandbox.baseUrl}`,
      `  API:      ${sandbox.baseUrl}/api/open/v1`,
      `  token:    ${sandbox.token}   (the sandbox's seeded token, every scope)`,
      `  control:  ${sandbox.baseUrl}/_sandbox/  (loopback only)`,
      `  state:    ${state}`,
      '',
    ].join('\n'),
  );
  deps.onReady?.(sandbox);
  try {
    await deps.stopped;
  } finally {
    await sandbox.close();
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

/** Runs the command with the given deps; the exit code is 0 after a clean stop, 2 on bad flags, 1 on failure. */
export async function runSandboxCommand(args: string[], deps: SandboxCommandDeps): Promise<number> {
  let parsed: SandboxArgs;
  try {
    parsed = parseSandboxArgs(args, deps.env);
  } catch (error) {
    deps.stderr(`intrabot sandbox: ${error instanceof Error ? error.message : String(error)}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  try {
    await serveSandbox(parsed, deps);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.stderr(`intrabot sandbox: ${message}\n`);
    return 1;
  }
}

export const command: CliCommand = {
  name: 'sandbox',
  usage: USAGE,
  summary: 'Serve the platform emulator alone (in memory, or in a SQLite file with --data).',
  run: (args) =>
    runSandboxCommand(args, {
      env: process.env,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stopped: untilSignal(),
    }),
};
