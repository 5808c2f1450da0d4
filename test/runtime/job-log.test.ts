import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { SandboxControl } from '../../src/testing';

const MINUTE = 60_000;

/** The runtime on an app of the test's own, whose lines the test reads (JSON): `npm start` logs at `info` (30), debug is 20. */
describe("a job's log line", () => {
  const lines: Record<string, unknown>[] = [];
  const clock = new AdjustableClock({ start: Date.parse('2026-06-01T08:00:30Z') });
  let sandbox: Sandbox;
  let runtime: Runtime;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-job-log-'));
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = Fastify({ logger: { level: 'debug', stream } });
    const env = {
      INTRABOT_PORT: '0',
      INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots-jobs'),
      INTRABOT_REDIS_URL: '',
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock, env, app });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await runtime.activate();
  });
  afterAll(async () => {
    await runtime?.close();
    await runtime?.app.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is left out at the info level for a scheduled run that sent nothing, and kept, with its count, for one that sent', async () => {
    const platform = new SandboxControl(sandbox.baseUrl);
    clock.advance(MINUTE);
    const finished = await platform.waitFor(
      async () => lines.filter((l) => String(l.msg).startsWith('job finished')).map((l) => [l.job, l.level, l.msg, l.sent]),
      (found) => found.length === 2,
    );
    expect(finished).toEqual(
      expect.arrayContaining([
        ['quiet', 20, 'job finished, nothing sent', 0],
        ['loud', 30, 'job finished', 1],
      ]),
    );
    expect(lines.filter((l) => l.msg === 'job failed')).toEqual([]);
  });
});
