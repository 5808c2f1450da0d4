import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { signedDelivery, type DeliveryTarget, type SignedDelivery, type Signing } from './lib/deliveries';
import { summarize, type LatencySummary } from './lib/stats';

/**
 * The load generator of `bench/ingest.ts`, run as its own process so it does not share an event loop
 * with the servers it measures: `node --import tsx bench/load.ts`. It reads one `LoadSpec` per line on
 * stdin and answers each with one `LoadReport` line on stdout (one process for every phase, so phases
 * can alternate quickly). Per phase it pre-signs distinct deliveries, then sends them over
 * `connections` keep-alive connections. `closed`: each connection sends its next request when the previous one is answered
 * (throughput); `open`: requests start at a fixed rate whatever the answers do, and latency counts
 * from the planned start (no coordinated omission).
 */
export interface LoadSpec {
  origin: string;
  path: string;
  target: DeliveryTarget;
  /** How the deliveries are signed (default `platform`; `github` for the durable peer). */
  signing?: Signing;
  connections: number;
  durationMs: number;
  mode: 'closed' | 'open';
  /** Requests per second in `open` mode. */
  rate?: number;
  /** Deliveries signed before the clock starts; a closed run stops early when they run out. */
  maxRequests: number;
  /** Post ids start here, so phases never repeat one. */
  firstPostId: number;
  /** Return every latency too (to pool several phases). */
  keepLatencies?: boolean;
}

export interface LoadReport {
  sent: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  rps: number;
  latencyMs: LatencySummary;
  exhausted: boolean;
  latencies?: number[];
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const spec = JSON.parse(line) as LoadSpec;
    const report = await runPhase(spec);
    if (!spec.keepLatencies) delete report.latencies;
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
}

async function runPhase(spec: LoadSpec): Promise<LoadReport> {
  const count = spec.mode === 'open' ? Math.ceil(((spec.rate ?? 100) * spec.durationMs) / 1000) : spec.maxRequests;
  const now = Date.now();
  const deliveries = Array.from({ length: count }, (_, i) => signedDelivery(spec.target, spec.firstPostId + i, now, spec.signing));
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1 });
  try {
    return spec.mode === 'open' ? await openLoop(pool, spec, deliveries) : await closedLoop(pool, spec, deliveries);
  } finally {
    await pool.close();
  }
}

interface Tally {
  latencies: number[];
  statuses: Record<string, number>;
  failed: number;
}

async function send(pool: Pool, path: string, delivery: SignedDelivery, startedAt: number, tally: Tally): Promise<void> {
  try {
    const res = await pool.request({ method: 'POST', path, headers: delivery.headers, body: delivery.body });
    await res.body.dump();
    tally.latencies.push(performance.now() - startedAt);
    tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
  } catch {
    tally.failed += 1;
  }
}

async function closedLoop(pool: Pool, spec: LoadSpec, deliveries: SignedDelivery[]): Promise<LoadReport> {
  const tally: Tally = { latencies: [], statuses: {}, failed: 0 };
  let next = 0;
  const start = performance.now();
  const end = start + spec.durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < end && next < deliveries.length) {
      const delivery = deliveries[next++]!;
      await send(pool, spec.path, delivery, performance.now(), tally);
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, worker));
  return report(tally, next, performance.now() - start, next >= deliveries.length);
}

async function openLoop(pool: Pool, spec: LoadSpec, deliveries: SignedDelivery[]): Promise<LoadReport> {
  const tally: Tally = { latencies: [], statuses: {}, failed: 0 };
  const interval = 1000 / (spec.rate ?? 100);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  while (next < deliveries.length) {
    const due = start + next * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 0.5));
    // every request whose planned start has come goes now; its latency counts from that plan
    while (next < deliveries.length && start + next * interval <= performance.now()) {
      inFlight.push(send(pool, spec.path, deliveries[next]!, start + next * interval, tally));
      next++;
    }
  }
  await Promise.all(inFlight);
  return report(tally, next, performance.now() - start, false);
}

function report(tally: Tally, sent: number, elapsedMs: number, exhausted: boolean): LoadReport {
  const ok = tally.statuses['200'] ?? 0;
  return {
    sent,
    ok,
    failed: tally.failed,
    statuses: tally.statuses,
    elapsedMs,
    rps: (ok * 1000) / elapsedMs,
    latencyMs: summarize(tally.latencies),
    exhausted,
    latencies: tally.latencies,
  };
}

await main();
