import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createSandbox, type Sandbox } from '../src/sandbox/sandbox';
import { freePorts } from './lib/free-port';
import { startScript } from './lib/start-flags';
import { emit, round, target, type InfoResult } from './lib/result';
import { median } from './lib/stats';

/**
 * DESIGN.md Targets: "Start-up with the example bots under 1.5 s; resident memory under 150 MB".
 * Spawns the real CLI as `npm start` does (`node <flags> bin/intrabot.mjs start`: one process, running
 * the build of src/ that bin/build.mjs keeps current) with every bot of `bots/`, and times spawn ->
 * `/readyz` answering 200; then reads the process's
 * VmRSS. Sandbox mode (runtime + embedded sandbox, fresh data dir, then a restart on the same data)
 * and connected mode (the runtime alone, against a sandbox this process runs).
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));
/** What `npm start` runs, node's flags included. */
const START_ARGS = ((): string[] => {
  const { nodeFlags, args } = startScript();
  return [...nodeFlags, ...args];
})();
const RUNS = 3;
const CONNECTED_RUNS = 2;
const READY_TIMEOUT_MS = 30_000;
/** A restart that waits on the rate budget would take a minute: the bench gives up earlier. */
const RESTART_TIMEOUT_MS = 12_000;

interface StartSample {
  readyMs: number;
  rssMb: number;
  /** RSS again after a second of idling (timers, lazy work settled). */
  rssSettledMb: number;
  /** The runtime's port and the sandbox's: a restart listens where the start did. */
  ports: readonly [number, number];
}

async function main(): Promise<void> {
  console.log('startup: `intrabot start` with the example bots until /readyz answers 200');
  const fresh: StartSample[] = [];
  let restart: StartSample | undefined;
  for (let i = 0; i < RUNS; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-startup-'));
    try {
      const first = await startOnce({ INTRABOT_DATA_DIR: dataDir }, true, READY_TIMEOUT_MS);
      fresh.push(first);
      // one restart on the data the first start left, right after it (a deploy or a crash loop), on the
      // same ports: at another address the runtime would move its webhooks there first, a reconfiguration
      if (i === 0) restart = await startOnce({ INTRABOT_DATA_DIR: dataDir }, true, RESTART_TIMEOUT_MS, first.ports).catch(() => undefined);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const alone = await connectedRuns();
  const info: InfoResult[] = [
    { name: 'sandbox mode, fresh data dir', value: line(fresh) },
    { name: 'sandbox mode, restart on the same data', value: restart ? line([restart]) : `not ready within ${RESTART_TIMEOUT_MS} ms` },
    { name: 'runtime alone (connected to an external sandbox)', value: line(alone) },
  ];
  emit({
    bench: 'startup',
    targets: [
      target('start-up to /readyz, example bots (median, fresh)', median(fresh.map((s) => s.readyMs)), 'ms', 'max', 1_500),
      target('restart to /readyz, same data, right after a start', restart?.readyMs ?? RESTART_TIMEOUT_MS, restart ? 'ms' : 'ms (gave up)', 'max', 1_500),
      target('resident memory 1 s after start (worst)', Math.max(...[...fresh, ...alone].map((s) => s.rssSettledMb)), 'MB', 'max', 150),
    ],
    info,
    notes: [
      `${RUNS} fresh starts of \`${['node', ...START_ARGS].join(' ')}\` (package.json's start script); timed from spawn (Node boot, the build check and compiling the bots included) to the first 200 from /readyz, polled every 10 ms`,
      "RSS is VmRSS of the CLI process from /proc (the runtime's own process; the bots' compiler runs as a child process while they load, and is stopped), at ready and 1 s later",
    ],
  });
}

async function connectedRuns(): Promise<StartSample[]> {
  const sandbox: Sandbox = await createSandbox({ port: 0 });
  const samples: StartSample[] = [];
  try {
    for (let i = 0; i < CONNECTED_RUNS; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-startup-'));
      try {
        samples.push(
          await startOnce(
            {
              INTRABOT_DATA_DIR: dataDir,
              INTRABOT_BASE_URL: sandbox.baseUrl,
              INTRABOT_TOKEN: sandbox.token,
              INTRABOT_CUSTOMER: 'sandbox',
              INTRABOT_SECRET_KEY: 'bench-secret-key-0123456789abcdef',
            },
            false,
            READY_TIMEOUT_MS,
          ),
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await sandbox.close();
  }
  return samples;
}

/** CLI processes running now: stopped if this benchmark is stopped (by `run.ts`'s time limit or ^C). */
const running = new Set<ChildProcess>();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(1);
  });
}

async function startOnce(extraEnv: Record<string, string>, withSandbox: boolean, timeoutMs: number, ports?: readonly [number, number]): Promise<StartSample> {
  const [port, sandboxPort] = ports ?? ((await freePorts(2)) as [number, number]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    INTRABOT_PORT: String(port),
    INTRABOT_SANDBOX_PORT: withSandbox ? String(sandboxPort) : '',
    INTRABOT_BASE_URL: '',
    INTRABOT_TOKEN: '',
    INTRABOT_REDIS_URL: '',
    ...extraEnv,
  };
  // connected mode: the runtime's own loopback address is where the sandbox delivers, and the example
  // bots (skipped in connected mode unless named) are named, so both modes start the same bots
  if (extraEnv.INTRABOT_BASE_URL) {
    env.INTRABOT_PUBLIC_URL ??= `http://127.0.0.1:${port}`;
    env.INTRABOT_BOTS ??= exampleBots().join(',');
  }
  const started = performance.now();
  const child = spawn(process.execPath, START_ARGS, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, child, () => output, timeoutMs);
    const readyMs = performance.now() - started;
    const rssMb = rssOf(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { readyMs, rssMb, rssSettledMb: rssOf(child.pid!), ports: [port, sandboxPort] };
  } finally {
    await stop(child);
  }
}

async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`intrabot start exited with ${child.exitCode}: ${output()}`);
    const ok = await request(url)
      .then(async (res) => {
        await res.body.dump();
        return res.statusCode === 200;
      })
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`intrabot start was not ready within ${timeoutMs} ms: ${output().slice(-1000)}`);
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function line(samples: StartSample[]): string {
  const ms = samples.map((s) => round(s.readyMs, 0)).join(', ');
  const rss = samples.map((s) => `${round(s.rssMb, 0)}/${round(s.rssSettledMb, 0)}`).join(', ');
  return `ready in ${ms} ms; RSS at ready/after 1 s ${rss} MB`;
}

await main();

/** The bots of this repository's bots/ (every folder with a bot.yaml). */
function exampleBots(): string[] {
  const dir = join(REPO, 'bots');
  return readdirSync(dir).filter((name) => existsSync(join(dir, name, 'bot.yaml')));
}
