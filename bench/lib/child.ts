import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A file of `bench/`, as an absolute path. */
export function benchFile(name: string): string {
  return fileURLToPath(new URL(`../${name}`, import.meta.url));
}

export interface ChildRun {
  child: ChildProcess;
  /** Resolves with everything the child printed once it exits; rejects on a non-zero exit. */
  done: Promise<string>;
}

/**
 * Runs a TypeScript file of `bench/` in its own Node process (`node --import tsx`), passing the
 * output through to ours when `echo` is set. A child still running after `timeoutMs` is killed.
 */
export function runTs(
  file: string,
  args: readonly string[],
  options: { echo?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv; nodeFlags?: readonly string[] } = {},
): ChildRun {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (options.echo) process.stdout.write(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    if (options.echo) process.stderr.write(chunk);
  });
  const done = new Promise<string>((resolve, reject) => {
    // SIGTERM first, so the child can stop what it spawned itself; SIGKILL if it does not go
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${file} exited with ${code ?? signal}: ${err.trim().slice(-2000)}`));
    });
  });
  return { child, done };
}
