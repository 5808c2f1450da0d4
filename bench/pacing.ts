import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createSandbox } from '../src/sandbox/sandbox';
import type { StoreConfig } from '../src/store';
import { benchFile, runTs } from './lib/child';
import { emit, round, target, type InfoResult, type TargetResult } from './lib/result';
import { warpClock, type WarpParams } from './lib/warp-clock';
import type { ReplicaReport, ReplicaSpec } from './pacing-replica';

/**
 * DESIGN.md Targets, pacing: "a job that needs N API calls under a limit L per minute finishes within
 * 1.05 x N/L minutes with zero 429 responses, alone and with 3 replicas sharing the budget, and no
 * 60-second window, fixed or sliding, holds more than L requests (sends are spread, not burst)".
 * The sandbox's limit is L per (fixed, one-minute) window; each replica is its own process with an API
 * client paced by the `SharedRateLimiter` over one shared store (SQLite file, or Redis when
 * `INTRABOT_REDIS_URL` is set). Sandbox and replicas run on one warped clock, SPEED times real time,
 * so a run that spans a window boundary takes seconds; every duration is in clock time. Windows are
 * counted over the times API requests reached the sandbox, on its clock.
 */
const LIMIT = 120;
/** More than one window's worth: the run must wait for a second window, as a real long job does. */
const CALLS = 150;
const CASES = [
  { name: 'alone', replicas: 1, calls: CALLS },
  { name: '3 replicas', replicas: 3, calls: CALLS },
  // one call past a window: the case where the bound is tightest
  { name: '3 replicas', replicas: 3, calls: LIMIT + 1 },
] as const;
const SPEED = 4;
const CONCURRENCY = 4;
/** Time for the replica processes to boot before they start together. */
const BOOT_MS = 4_000;

interface CaseResult {
  name: string;
  replicas: number;
  calls: number;
  ratio: number;
  durationS: number;
  ok: number;
  failed: number;
  clientTooMany: number;
  sandboxTooMany: number;
  sandboxRequests: number;
  /** The most requests that reached the sandbox within any 60 s, wherever the window starts. */
  slidingMax: number;
  /** The most in one of the sandbox's own fixed windows (each starts with the first request after the last ended). */
  fixedMax: number;
  /** The most within any one second: a burst shows here. */
  secondMax: number;
}

const WINDOW_MS = 60_000;

/** The most of the sorted `times` within any closed stretch of `spanMs` (the fullest starts at a request). */
function fullestWindow(times: readonly number[], spanMs: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while ((times[last] ?? 0) - (times[first] ?? 0) > spanMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** The most of the sorted `times` in one fixed window as the sandbox counts: a window opens with a request and lasts `spanMs`. */
function fullestFixedWindow(times: readonly number[], spanMs: number): number {
  let most = 0;
  let start = Number.NEGATIVE_INFINITY;
  let count = 0;
  for (const t of times) {
    if (t >= start + spanMs) {
      start = t;
      count = 0;
    }
    count += 1;
    most = Math.max(most, count);
  }
  return most;
}

async function main(): Promise<void> {
  console.log(`pacing: N calls under L = ${LIMIT}/min on a clock at ${SPEED}x real time`);
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-pacing-'));
  try {
    const cases: CaseResult[] = [];
    for (const c of CASES) cases.push(await runCase(c.name, c.replicas, c.calls, dir));
    const targets: TargetResult[] = [];
    const info: InfoResult[] = [];
    for (const c of cases) {
      targets.push(target(`pacing ${c.name}, N=${c.calls}: duration / (N/L)`, c.ratio, 'x', 'max', 1.05));
      targets.push(target(`pacing ${c.name}, N=${c.calls}: 429 answers`, Math.max(c.clientTooMany, c.sandboxTooMany), '', 'max', 0));
      targets.push(target(`pacing ${c.name}, N=${c.calls}: most requests in any 60 s (sliding)`, c.slidingMax, '', 'max', LIMIT));
      targets.push(target(`pacing ${c.name}, N=${c.calls}: most requests in one fixed window`, c.fixedMax, '', 'max', LIMIT));
      info.push({
        name: `${c.name}, N=${c.calls}`,
        value: `${c.ok}/${c.calls} calls ok in ${round(c.durationS, 1)} s of clock time; the sandbox logged ${c.sandboxRequests} API requests, ${c.sandboxTooMany} of them 429; at most ${c.secondMax} in any one second`,
      });
    }
    const shared = process.env.INTRABOT_REDIS_URL ? 'Redis (INTRABOT_REDIS_URL)' : 'one SQLite file';
    emit({
      bench: 'pacing',
      targets,
      info,
      notes: [
        `L = ${LIMIT}/min, ${CONCURRENCY} calls in flight per replica; replicas are separate processes sharing ${shared}; 3 replicas split N between them`,
        `sandbox and replicas share a clock running ${SPEED}x real time (same start, same speed in every process), so a one-minute window passes in ${60 / SPEED} s; HTTP latency counts ${SPEED}x too`,
        `calls are paced as the outbox's sends: spread from the first, one every (60 s + the pacer's 1 s margin) / L = ${round(61 / LIMIT, 3)} s, so N calls take about (N - 1) x that: a ratio of about (N - 1) / N x 61 / 60, near 1.01, plus latency; no window of 61 s holds more than L`,
        `windows are counted over the arrival times at the sandbox (its clock): sliding = any 60 s, wherever it starts; fixed = the sandbox's own windows`,
      ],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runCase(name: string, replicas: number, calls: number, dir: string): Promise<CaseResult> {
  const now = Date.now();
  const warp: WarpParams = { wallStart: now, clockStart: now, speed: SPEED };
  // a fresh sandbox per case: its rate window must start empty, as the store does
  const sandbox = await createSandbox({ clock: warpClock(warp), port: 0 });
  // every API request as it reaches the platform, on its clock (the request log keeps whole seconds)
  const arrivals: number[] = [];
  sandbox.app.server.on('request', (req: { url?: string }) => {
    if (req.url?.startsWith('/api/')) arrivals.push(sandbox.clock.now());
  });
  try {
    await control(sandbox.baseUrl, 'PUT', '/_sandbox/settings', { rate_limit_per_minute: LIMIT });
    const store: StoreConfig = process.env.INTRABOT_REDIS_URL
      ? { kind: 'redis', url: process.env.INTRABOT_REDIS_URL, prefix: `intrabot-bench-${now}-${replicas}` }
      : { kind: 'sqlite', path: join(dir, `rate-${replicas}-${calls}.db`) };
    const startAtWallMs = Date.now() + BOOT_MS;
    const shares = Array.from({ length: replicas }, (_, i) => Math.floor(calls / replicas) + (i < calls % replicas ? 1 : 0));
    const runs = shares.map((calls) => {
      const spec: ReplicaSpec = { baseUrl: sandbox.baseUrl, token: sandbox.token, store, warp, calls, concurrency: CONCURRENCY, startAtWallMs };
      return runTs(benchFile('pacing-replica.ts'), [JSON.stringify(spec)], { timeoutMs: 120_000 }).done;
    });
    const reports = (await Promise.all(runs)).map((out) => JSON.parse(out.trim().split('\n').pop()!) as ReplicaReport);
    const logged = (await control(sandbox.baseUrl, 'GET', '/_sandbox/requests?limit=500')) as { data: { path: string; status: number }[] };
    const api = logged.data.filter((r) => r.path.startsWith('/api/'));
    arrivals.sort((a, b) => a - b);
    const durationMs = Math.max(...reports.map((r) => r.finishedAt)) - Math.min(...reports.map((r) => r.startedAt));
    const result: CaseResult = {
      name,
      replicas,
      durationS: durationMs / 1000,
      calls,
      ratio: durationMs / ((calls / LIMIT) * 60_000),
      ok: reports.reduce((n, r) => n + r.ok, 0),
      failed: reports.reduce((n, r) => n + r.failed, 0),
      clientTooMany: reports.reduce((n, r) => n + r.tooManyRequests, 0),
      sandboxTooMany: api.filter((r) => r.status === 429).length,
      sandboxRequests: api.length,
      slidingMax: fullestWindow(arrivals, WINDOW_MS),
      fixedMax: fullestFixedWindow(arrivals, WINDOW_MS),
      secondMax: fullestWindow(arrivals, 999),
    };
    console.log(
      `  ${name}, N=${calls}: ${round(result.durationS, 1)} s of ideal ${round((calls / LIMIT) * 60, 1)} s (ratio ${round(result.ratio, 3)}), ${result.ok} ok, ${result.failed} failed, 429s: client ${result.clientTooMany}, sandbox ${result.sandboxTooMany}; most in 60 s: ${result.slidingMax} sliding, ${result.fixedMax} fixed; most in 1 s: ${result.secondMax}`,
    );
    return result;
  } finally {
    await sandbox.close();
  }
}

async function control(baseUrl: string, method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  const res = await request(`${baseUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const json: unknown = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

await main();
