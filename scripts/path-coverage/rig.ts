import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { openRuntimeStore } from '../../src/runtime/start/open-runtime-store';
import type { PlatformEvent } from '../../src/sandbox/events';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import type { SeedRefs } from '../../src/sandbox/seed/seed-refs';
import type { Store } from '../../src/store/store';
import { SandboxControl } from '../../src/testing/sandbox-control';
import { PROBE_ALERT_TOKEN, PROBE_TARGET_WALL, writeProbeBots } from './probe-bots';
import { StoreWatch } from './store-watch';

/** Tuesday 2 June 2026, 08:00:10 UTC: the hourly cron slot is 59 minutes away, whatever else runs first. */
const START = Date.UTC(2026, 5, 2, 8, 0, 10);

/**
 * Idle lanes of the inbox worker and the outbox sender look again after this long on the clock (their
 * defaults are 1 s and 0.5 s; the tests' pairs poll every 0.1 s). Set past any window, so an idle lane
 * waits for its `wake()` (an accepted delivery, an enqueued send), as it does on the path itself, and
 * no polling lands in a window.
 */
const POLL_MS = 30 * 60_000;

/** A sandbox and a runtime with the three probe bots, sharing one clock, over real HTTP on loopback. */
export interface Rig {
  sandbox: Sandbox;
  runtime: Runtime;
  clock: AdjustableClock;
  platform: SandboxControl;
  refs: SeedRefs;
  /** The runtime's base URL. */
  baseUrl: string;
  watch: StoreWatch;
  /** The wall `/ping` is posted on (the pinger's only subscription). */
  pingWallId: number;
  /** The wall the ticker and the alerter post to. */
  targetWallId: number;
  alertToken: string;
  /** Resolves with the first platform event (as the sandbox emits it) that `match` accepts, from now on. */
  nextEvent(match: (event: PlatformEvent) => boolean, timeoutMs?: number): Promise<PlatformEvent>;
  /** Resolves once no delivery is in flight and the runtime's queues hold no lease, for `quietMs` in a row. */
  quiet(quietMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRig(root: string): Promise<Rig> {
  const clock = new AdjustableClock({ start: START });
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-path-coverage-'));
  const sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
  const platform = new SandboxControl(sandbox.baseUrl);
  const closers: Array<() => Promise<void> | void> = [() => sandbox.close(), () => rmSync(dataDir, { recursive: true, force: true })];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const refs = await platform.refs();
    const targetWallId = refs.department_walls[PROBE_TARGET_WALL];
    if (targetWallId === undefined) throw new Error(`path-coverage: the demo seed has no wall "${PROBE_TARGET_WALL}"`);
    const botsDir = join(dataDir, 'bots');
    writeProbeBots(botsDir, join(root, 'src'), refs.company_wall_id);
    const { runtime, store, watch } = await buildProbeRuntime(root, clock, sandbox, dataDir, botsDir);
    closers.push(() => store.close());
    const baseUrl = await startOrClose(runtime);
    closers.push(() => runtime.close());
    return {
      sandbox,
      runtime,
      clock,
      platform,
      refs,
      baseUrl,
      watch,
      pingWallId: refs.company_wall_id,
      targetWallId,
      alertToken: PROBE_ALERT_TOKEN,
      nextEvent: (match, timeoutMs) => nextEvent(sandbox, match, timeoutMs),
      quiet: (quietMs) => quiet(platform, watch, quietMs),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** The runtime as `startPair` builds it (src/testing/start-pair.ts), on a store the watch sees into. */
async function buildProbeRuntime(
  root: string,
  clock: AdjustableClock,
  sandbox: Sandbox,
  dataDir: string,
  botsDir: string,
): Promise<{ runtime: Runtime; store: Store; watch: StoreWatch }> {
  const env = {
    ...process.env,
    INTRABOT_PORT: '0',
    INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: botsDir,
    INTRABOT_LOG_LEVEL: process.env.PATH_COVERAGE_LOG ?? 'silent',
    INTRABOT_BASE_URL: '',
    INTRABOT_TOKEN: '',
    INTRABOT_REDIS_URL: '',
    INTRABOT_BOTS: '',
    PROBE_ALERT_TOKEN,
  };
  const config = loadConfig({ env, cwd: dataDir });
  const store = await openRuntimeStore(config, clock, env);
  const watch = new StoreWatch(store);
  try {
    const runtime = await buildRuntime({ config, clock, env, store: watch.store, pollMs: POLL_MS, rootDir: root, templatesDir: join(root, 'templates') });
    return { runtime, store, watch };
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function startOrClose(runtime: Runtime): Promise<string> {
  try {
    return await runtime.start();
  } catch (error) {
    await runtime.close().catch(() => undefined);
    throw error;
  }
}

function nextEvent(sandbox: Sandbox, match: (event: PlatformEvent) => boolean, timeoutMs = 10_000): Promise<PlatformEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`path-coverage: the expected outcome did not show on the platform within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = sandbox.ctx.events.on((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

async function quiet(platform: SandboxControl, watch: StoreWatch, quietMs = 300, timeoutMs = 15_000): Promise<void> {
  const started = performance.now();
  let calmSince = performance.now();
  for (;;) {
    if (performance.now() - started > timeoutMs) throw new Error('path-coverage: the runtime did not go quiet');
    if (!watch.quiet()) calmSince = performance.now();
    else if (performance.now() - calmSince >= quietMs) {
      await platform.settleDeliveries();
      if (watch.quiet()) return;
    }
    await sleep(10);
  }
}
