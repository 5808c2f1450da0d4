import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `bench/run.ts` with `args` (only ways out that run no benchmark). */
function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bench/run.ts', () => {
  it('prints its usage for --help and runs nothing', async () => {
    const { code, stdout } = await runBench(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run bench/);
    expect(stdout).toContain('ingest, pacing, startup');
    expect(stdout).not.toContain('== ingest ==');
  });

  it('refuses an unknown benchmark with exit code 2, naming it and the known ones', async () => {
    const { code, stderr } = await runBench(['nope']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown benchmark(s): nope; known: ingest, pacing, startup');
  });
});
