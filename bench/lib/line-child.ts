import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A bench helper process spoken to in lines: one JSON line in on its stdin, one JSON line back on its
 * stdout, in order. Ending its stdin (`close()`) asks it to clean up and exit. The load generator
 * (`bench/load.ts`) and the durable peer (`bench/peer.ts`) run this way, each in its own process so
 * it does not share an event loop with what it measures or is measured against.
 */
export class LineChild {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = '';
  private exited: Error | undefined;

  constructor(
    private readonly label: string,
    file: string,
    nodeFlags: readonly string[] = [],
    /** Variables added to this process's environment for the child. */
    env: Readonly<Record<string, string>> = {},
  ) {
    this.child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', file], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on('exit', (code, signal) => {
      this.exited = new Error(`${label} exited with ${code ?? signal}: ${this.stderr.trim().slice(-2000)}`);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends `message` and resolves with the child's answer line, parsed. */
  request<T>(message: unknown, timeoutMs = 60_000): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label} did not answer within ${timeoutMs} ms`)), timeoutMs);
      const onExit = (): void => {
        clearTimeout(timer);
        reject(this.exited);
      };
      this.child.once('exit', onExit);
      this.waiting.push((line) => {
        clearTimeout(timer);
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as T);
      });
      this.child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }

  /** Ends the child's stdin and waits for it to exit (killed after `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await exit;
    clearTimeout(timer);
  }
}
