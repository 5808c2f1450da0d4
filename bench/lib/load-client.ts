import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import type { LoadReport, LoadSpec } from '../load';
import { benchFile } from './child';

/**
 * Drives the load generator process (`bench/load.ts`): one phase at a time, a spec line out and a
 * report line back. `close()` ends its stdin, and it exits.
 */
export class LoadGenerator {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = '';
  private exited: Error | undefined;

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', benchFile('load.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on('line', (line) => this.waiting.shift()?.(line));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on('exit', (code) => {
      this.exited = new Error(`the load generator exited with ${code}: ${this.stderr.trim().slice(-2000)}`);
    });
  }

  phase(spec: LoadSpec, timeoutMs = 60_000): Promise<LoadReport> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`a load phase took longer than ${timeoutMs} ms`)), timeoutMs);
      const onExit = (): void => reject(this.exited);
      this.child.once('exit', onExit);
      this.waiting.push((line) => {
        clearTimeout(timer);
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as LoadReport);
      });
      this.child.stdin.write(`${JSON.stringify(spec)}\n`);
    });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  }
}
