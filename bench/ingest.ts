import Fastify, { type FastifyInstance } from 'fastify';
import { webhookSecretName } from '../src/bots/provision/provision-bot';
import { benchFile } from './lib/child';
import { LoadGenerator } from './lib/load-client';
import { startBenchRuntime, type BenchRuntime } from './lib/start-runtime';
import type { DeliveryTarget } from './lib/deliveries';
import { emit, round, target, type InfoResult } from './lib/result';
import { median, summarize, type LatencySummary } from './lib/stats';
import type { LoadReport, LoadSpec } from './load';

/**
 * DESIGN.md Targets, event ingest: the real receiver path (verify + dedupe + durable inbox + 200,
 * in the full runtime over SQLite, while a bot's handlers take 5 s each) against a bare Fastify
 * route that parses JSON and answers 200, with the same load generator and settings in one run.
 */
/** Connections of the throughput phases (BENCH_CONNECTIONS to experiment). */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WARMUP_MS = 1_500;
const PHASE_MS = 2_000;
/** Bare and runtime alternate in short phases, so load from elsewhere on the machine hits both alike. */
const ROUNDS = 6;
/** The latency phase: a steady rate well above what one tenant's platform sends. */
const OPEN_RATE = 500;
const OPEN_MS = 2_000;
/** Bare and runtime alternate in the latency phase too; the percentiles pool every chunk. */
const OPEN_ROUNDS = 3;
/** Enough for a 2-second phase at 65,000 req/s; signed before the phase's clock starts. */
const MAX_REQUESTS = 130_000;

const HOOK_PATH = '/hooks/sandbox/slow';
/** To try another inbox batch window than the store's default (an experiment, not the target run). */
const BATCH_WINDOW_MS = process.env.BENCH_INBOX_WINDOW_MS ? Number(process.env.BENCH_INBOX_WINDOW_MS) : undefined;

async function main(): Promise<void> {
  console.log('ingest: bare Fastify JSON route vs the runtime receiver (handlers sleep 5 s)');
  const bare = await startBare();
  let pair: BenchRuntime | undefined;
  try {
    pair = await startBenchRuntime({
      bots: ['slow'],
      botsDir: benchFile('bots'),
      ...(BATCH_WINDOW_MS === undefined ? {} : { inboxBatchWindowMs: BATCH_WINDOW_MS }),
    });
    const tenant = pair.runtime.config.tenants[0]!;
    const secret = await pair.runtime.store.secrets.get(webhookSecretName(tenant.id, 'slow'));
    if (!secret) throw new Error('the slow bot was not provisioned: no webhook secret in the store');
    const delivery: DeliveryTarget = { secret, customer: tenant.customer ?? 'sandbox', eventPrefix: tenant.event_prefix };
    const targets = { bare: originOf(bare), runtime: pair.runtime.url! };
    await measure(targets, delivery, pair);
  } finally {
    await pair?.close();
    await bare.close();
  }
}

async function measure(origins: { bare: string; runtime: string }, delivery: DeliveryTarget, pair: BenchRuntime): Promise<void> {
  const generator = new LoadGenerator();
  let postId = 1_000_000;
  const load = async (origin: string, extra: Partial<LoadSpec>): Promise<Phase> => {
    const spec: LoadSpec = {
      origin,
      path: HOOK_PATH,
      target: delivery,
      connections: CONNECTIONS,
      durationMs: PHASE_MS,
      mode: 'closed',
      maxRequests: MAX_REQUESTS,
      firstPostId: postId,
      ...extra,
    };
    postId += spec.maxRequests + 1;
    // both servers live in this process: its CPU time during a phase is what that phase's server spent
    const before = process.cpuUsage();
    const report = await generator.phase(spec);
    const used = process.cpuUsage(before);
    return { ...report, cpuUsPerRequest: (used.user + used.system) / Math.max(1, report.ok), cpuShare: (used.user + used.system) / 1000 / report.elapsedMs };
  };
  try {
    await load(origins.bare, { durationMs: WARMUP_MS });
    await load(origins.runtime, { durationMs: WARMUP_MS });
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // the order flips each round, so neither side always runs right after the other
      const first = i % 2 === 0 ? 'bare' : 'runtime';
      const a = await load(origins[first], {});
      const b = await load(first === 'bare' ? origins.runtime : origins.bare, {});
      rounds.push(first === 'bare' ? { bare: a, real: b } : { bare: b, real: a });
      console.log(`  round ${i + 1}: bare ${describe(rounds[i]!.bare)}; runtime ${describe(rounds[i]!.real)}`);
    }
    const open = {
      mode: 'open' as const,
      rate: OPEN_RATE,
      durationMs: OPEN_MS,
      connections: 64,
      maxRequests: (OPEN_RATE * OPEN_MS) / 1000,
      keepLatencies: true,
    };
    const bareChunks: LoadReport[] = [];
    const realChunks: LoadReport[] = [];
    pair.ackTimes.length = 0;
    for (let i = 0; i < OPEN_ROUNDS; i++) {
      bareChunks.push(await load(origins.bare, open));
      realChunks.push(await load(origins.runtime, open));
    }
    const bareSteady = pooled(bareChunks);
    const steady = pooled(realChunks);
    const serverSide = summarize(pair.ackTimes);
    const started = await pair.runtime.store.kv('bot:sandbox:slow').get('last-started');
    const { inboxAccepts, inboxBatches } = pair.store.stats;
    report(rounds, bareSteady, steady, { handlersRan: started !== undefined, meanBatch: inboxAccepts / Math.max(1, inboxBatches), serverSide });
  } finally {
    await generator.close();
  }
}

function report(
  rounds: Round[],
  bareSteady: LoadReport,
  steady: LoadReport,
  runtime: { handlersRan: boolean; meanBatch: number; serverSide: LatencySummary },
): void {
  const ratios = rounds.map((r) => r.real.rps / r.bare.rps);
  const cpuRatios = rounds.map((r) => r.bare.cpuUsPerRequest / r.real.cpuUsPerRequest);
  const bare = rounds.map((r) => r.bare);
  const real = rounds.map((r) => r.real);
  const all = [...bare, ...real, bareSteady, steady];
  const notOk = all.reduce((n, r) => n + (r.sent - r.ok), 0);
  const info: InfoResult[] = [
    {
      name: 'bare Fastify',
      value: round(median(bare.map((r) => r.rps)), 0),
      unit: `req/s median (p99 ${round(median(bare.map((r) => r.latencyMs.p99)), 2)} ms at ${CONNECTIONS} connections)`,
    },
    {
      name: 'runtime receiver',
      value: round(median(real.map((r) => r.rps)), 0),
      unit: `req/s median (p99 ${round(median(real.map((r) => r.latencyMs.p99)), 2)} ms at ${CONNECTIONS} connections)`,
    },
    { name: 'req/s ratio per round', value: ratios.map((r) => round(r, 2)).join(', ') },
    {
      name: 'server CPU per request',
      value: `bare ${round(median(bare.map((r) => r.cpuUsPerRequest)), 1)} µs, runtime ${round(median(real.map((r) => r.cpuUsPerRequest)), 1)} µs`,
    },
    {
      name: 'server CPU share',
      value: `bare ${pct(median(bare.map((r) => r.cpuShare)))}, runtime ${pct(median(real.map((r) => r.cpuShare)))} of a core (median)`,
      unit: saturation(bare, real),
    },
    { name: `bare at ${OPEN_RATE} req/s`, value: latencyLine(bareSteady) },
    { name: `runtime at ${OPEN_RATE} req/s`, value: latencyLine(steady) },
    {
      name: `runtime at ${OPEN_RATE} req/s, inside the server`,
      value: `p50 ${round(runtime.serverSide.p50, 2)} ms, p99 ${round(runtime.serverSide.p99, 2)} ms, max ${round(runtime.serverSide.max, 1)} ms (Fastify elapsedTime: request read to answer sent)`,
    },
    { name: 'inbox deliveries per SQLite transaction', value: round(runtime.meanBatch, 1), unit: 'mean over the run' },
    { name: 'answers other than 200', value: notOk },
  ];
  const notes = [
    `load generator: a separate process, undici Pool, ${CONNECTIONS} keep-alive connections (closed loop), ${ROUNDS} alternating rounds of ${PHASE_MS / 1000} s after a warm-up; distinct pre-signed post.created deliveries; the ratio is the median of the per-round ratios`,
    "capacity: the server process's CPU time (user + system, every thread, the WAL checkpointer included) per answered request, bare ÷ runtime: the req/s ratio the two would reach each saturating a core, independent of what else runs on the machine",
    `latency: an open loop at ${OPEN_RATE} req/s, ${OPEN_ROUNDS} alternating chunks of ${OPEN_MS / 1000} s per side, timed from each request's planned start; the bare app's p99 is the machine's noise floor`,
    `node flags: ${process.execArgv.filter((f) => f.startsWith('--') && f !== '--import').join(' ') || 'none'} (npm run bench gives ingest those of npm start, which apply to both servers)`,
    `runtime: buildRuntime wired as startPair does, SQLite store with ${BATCH_WINDOW_MS === undefined ? 'its default batch window' : `a ${BATCH_WINDOW_MS} ms batch window (BENCH_INBOX_WINDOW_MS)`}, log level silent (the bare app logs nothing either); its 4 inbox lanes hold 5-second handlers throughout`,
    runtime.handlersRan
      ? "the slow bot's handlers ran during the measurement"
      : 'WARNING: no handler of the slow bot started: the 5-second load was not in effect',
  ];
  if (all.some((r) => r.exhausted)) notes.push(`a phase ran out of its ${MAX_REQUESTS} pre-signed deliveries early (its rate is still valid)`);
  emit({
    bench: 'ingest',
    targets: [
      target('ingest req/s vs bare Fastify (measured)', median(ratios), 'x', 'min', 0.8),
      target('ingest capacity vs bare Fastify (CPU per request)', median(cpuRatios), 'x', 'min', 0.8),
      target(`ingest p99 ack at ${OPEN_RATE} req/s, handlers busy 5 s`, steady.latencyMs.p99, 'ms', 'max', 20),
    ],
    info,
    notes,
  });
}

interface Phase extends LoadReport {
  /** CPU time (user + system, all threads) of the server process per answered request. */
  cpuUsPerRequest: number;
  /** Cores' worth of CPU the server process used during the phase. */
  cpuShare: number;
}

interface Round {
  bare: Phase;
  real: Phase;
}

/** Whether the req/s ratio compares the servers, or what else limited them. */
function saturation(bare: Phase[], real: Phase[]): string {
  const low = (phases: Phase[]): boolean => median(phases.map((p) => p.cpuShare)) < 0.85;
  if (!low(bare) && !low(real)) return '(both near a full core: the req/s ratio compares the servers themselves)';
  const which = low(bare) && low(real) ? 'neither server' : low(bare) ? 'the bare server' : 'the runtime';
  return `(${which} used a full core: the load generator or other work on the machine limited its req/s; trust the capacity ratio)`;
}

const pct = (share: number): string => `${(share * 100).toFixed(0)}%`;

const describe = (p: Phase): string => `${p.rps.toFixed(0)} req/s, ${p.cpuUsPerRequest.toFixed(0)} µs CPU/req, ${(p.cpuShare * 100).toFixed(0)}% of a core`;

/** One report over several open-loop chunks: percentiles over all their latencies. */
function pooled(chunks: LoadReport[]): LoadReport {
  const latencies = chunks.flatMap((c) => c.latencies ?? []);
  const sum = (f: (c: LoadReport) => number): number => chunks.reduce((n, c) => n + f(c), 0);
  const statuses: Record<string, number> = {};
  for (const c of chunks) for (const [k, v] of Object.entries(c.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const elapsedMs = sum((c) => c.elapsedMs);
  return {
    sent: sum((c) => c.sent),
    ok: sum((c) => c.ok),
    failed: sum((c) => c.failed),
    statuses,
    elapsedMs,
    rps: (sum((c) => c.ok) * 1000) / elapsedMs,
    latencyMs: summarize(latencies),
    exhausted: false,
  };
}

const latencyLine = (r: LoadReport): string =>
  `p50 ${round(r.latencyMs.p50, 2)} ms, p99 ${round(r.latencyMs.p99, 2)} ms, max ${round(r.latencyMs.max, 1)} ms (${r.ok}/${r.sent} answered 200)`;

async function startBare(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
  app.post('/hooks/:tenant/:bot', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare app is not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

await main();
