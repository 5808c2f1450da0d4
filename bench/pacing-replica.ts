import { setTimeout as sleep } from 'node:timers/promises';
import { createApiClient } from '../src/api/create-api-client';
import type { RateLimiter } from '../src/api/rate-limiter';
import { OUTBOX_PACE } from '../src/outbox/send-client';
import { SharedRateLimiter } from '../src/api/shared-rate-limiter';
import { openStore, type StoreConfig } from '../src/store';
import { warpClock, type WarpParams } from './lib/warp-clock';

/**
 * One replica of `bench/pacing.ts`, in its own process: `node --import tsx bench/pacing-replica.ts
 * '<ReplicaSpec as JSON>'`. It opens the shared store, paces an API client with the
 * `SharedRateLimiter` over `store.rate` (as the runtime does, paced as the outbox's sends), makes its share of the calls and prints
 * one `ReplicaReport` line. Several replicas given the same store and clock share one budget.
 */
export interface ReplicaSpec {
  baseUrl: string;
  token: string;
  store: StoreConfig;
  warp: WarpParams;
  calls: number;
  /** Calls in flight at once (a job paginating several listings). */
  concurrency: number;
  /** Real time (epoch ms) at which to begin, so replicas start together. */
  startAtWallMs: number;
}

export interface ReplicaReport {
  /** Clock ms of the first call's start and the last call's end. */
  startedAt: number;
  finishedAt: number;
  ok: number;
  failed: number;
  /** 429 answers this replica's client saw (each one makes it back off). */
  tooManyRequests: number;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ReplicaSpec;
  console.log(JSON.stringify(await runReplica(spec)));
}

/** Runs one replica's calls; exported so a single-process variant can run several in one loop. */
export async function runReplica(spec: ReplicaSpec): Promise<ReplicaReport> {
  const clock = warpClock(spec.warp);
  const store = await openStore(spec.store, { clock });
  const shared = new SharedRateLimiter({ rate: store.rate, clock });
  let tooManyRequests = 0;
  // the client calls backoff() exactly when an answer is a 429 (src/api/client.ts); every call is paced
  // as the outbox's sends are (spread from the first), not with the burst the runtime's other calls get
  const limiter: RateLimiter = {
    acquire: (key, signal) => shared.acquire(key, signal, { pace: OUTBOX_PACE }),
    observe: (key, budget) => shared.observe(key, budget),
    backoff: (key, untilMs) => {
      tooManyRequests += 1;
      shared.backoff(key, untilMs);
    },
  };
  const api = createApiClient({ baseUrl: spec.baseUrl, token: spec.token, clock, limiter });
  try {
    await sleep(Math.max(0, spec.startAtWallMs - Date.now()));
    const startedAt = clock.now();
    let next = 0;
    let ok = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      while (next < spec.calls) {
        next++;
        try {
          await api.request({ method: 'GET', path: '/walls', query: { per_page: 1 } });
          ok++;
        } catch {
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: spec.concurrency }, worker));
    return { startedAt, finishedAt: clock.now(), ok, failed, tooManyRequests };
  } finally {
    await api.close();
    await store.close();
  }
}

if (process.argv[1]?.endsWith('pacing-replica.ts')) await main();
