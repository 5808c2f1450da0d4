import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ClosureAnalysis, closureFindings, rangeKey, type ClosureFindings, type RanRange } from './closures';
import { CoverageWindow, type RanFiles, type RanFunction, type SampledCall } from './coverage';
import { callFindings, layerFindings, layerOf, sandboxReach, type CallEdge, type ImportEdge } from './layers';
import { startRig, type Rig } from './rig';
import { PATH_NAMES, TRIGGERS, type PathName, type PathTrigger } from './triggers';
import type { StoreWatch } from './store-watch';

/** The repository this script belongs to. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One counted file of a path. */
export interface FileRun {
  /** Relative to `src/`. */
  file: string;
  /** Its top folder (`(root)` for a file at the top, `(entry)` for the barrels). */
  layer: string;
  functions: RanFunction[];
  /** The sandbox's code imports it (directly or not): some of its runs may be the platform's. */
  sandboxShared: boolean;
  /** It ran in the idle window too: some of its runs may be background work. */
  idle: boolean;
}

export interface PathMeasurement {
  path: PathName;
  route: string;
  /** What the trigger made, as the platform has it. */
  outcome: string;
  /** From the trigger to its work having played out (real time; for information, never a target). */
  windowMs: number;
  fileCount: number;
  functionCount: number;
  files: FileRun[];
  climbs: ImportEdge[];
  typeClimbs: ImportEdge[];
  sharedIntoLayers: ImportEdge[];
  /**
   * Calls up a layer the CPU profiler sampled, in the window and in `samplingRuns` more triggers (a lower
   * bound): functions handed down, called from below.
   */
  sampledCalls: { climbs: CallEdge[]; sharedIntoLayers: CallEdge[] };
  /** Counted files that ran in an idle window of the same length right after (no trigger). */
  idleFiles: string[];
  /**
   * Issue #25's "function-valued dependencies carrying state": closures that ran in the window and whose
   * value goes out of the file they are made in (static), and of them those called from another file in
   * `callerRuns` more triggers (observed with breakpoints).
   */
  closures: ClosureFindings;
}

export interface MeasureOptions {
  paths?: readonly PathName[];
  /** Triggers run before the measured one, so the window sees no first-time loading (default 1). */
  warmups?: number;
  /**
   * Triggers after the measured one, each under the CPU profiler alone, for more sampled calls up a
   * layer (default 4; 0: the measured window's samples only).
   */
  samplingRuns?: number;
  /**
   * Triggers after the sampling runs in which each closure that ran in the window is watched for its
   * callers (default 3; 0: no callers, only the static check).
   */
  callerRuns?: number;
  /** The repository (default: this script's). */
  root?: string;
}

/**
 * Runs each path's trigger on a fresh sandbox and runtime (one for all paths), warmed up, and counts the
 * `src/` files and functions that ran in a window around one trigger. See scripts/path-coverage.ts.
 */
export async function measurePaths(options: MeasureOptions = {}): Promise<PathMeasurement[]> {
  const root = options.root ?? REPO_ROOT;
  const srcDir = join(root, 'src');
  const coverage = new CoverageWindow(srcDir);
  await coverage.start();
  let rig: Rig | undefined;
  try {
    rig = await startRig(root);
    const reach = sandboxReach(srcDir);
    const analysis = new ClosureAnalysis(srcDir, (scriptId) => coverage.scriptSource(scriptId));
    const results: PathMeasurement[] = [];
    let run = 0;
    for (const path of options.paths ?? PATH_NAMES) {
      const trigger = TRIGGERS[path];
      for (let i = 0; i < (options.warmups ?? 1); i++) await triggerOnce(rig, trigger, run++);
      const measured = await measureOnce(rig, coverage, trigger, run++);
      for (let i = 0; i < (options.samplingRuns ?? 4); i++) measured.calls.push(...(await sampleOnce(rig, coverage, trigger, run++)));
      // after the window: the closures' sources (the debugger on), then their callers in more triggers
      const closures = await analysis.closures(measured.ranges);
      const callerRuns = options.callerRuns ?? 3;
      const watched = callerRuns > 0 ? closures.flatMap((c) => c.ranges.map((r) => ({ ...r, key: rangeKey(r) }))) : [];
      const watch = await coverage.watchCallers(watched);
      try {
        for (let i = 0; i < callerRuns; i++) await triggerOnce(rig, trigger, run++);
      } finally {
        measured.closures = closureFindings(closures, await watch.stop(), callerRuns);
      }
      results.push(describePath(srcDir, trigger, measured, reach));
    }
    return results;
  } finally {
    await rig?.close();
    await coverage.stop();
  }
}

/**
 * Before a trigger that is not a cron slot: the clock moved on a few seconds (outside the window) and
 * everything quiet, so the send finds its token's budget free, as an unhurried trigger does. Otherwise
 * whether it waits to be spread behind the last send (a `sleep` in the rate limiter, timers of the clock)
 * would depend on how soon after the warm-up the window opened.
 */
async function unhurried(rig: Rig): Promise<void> {
  await rig.quiet();
  await rig.platform.advance(5);
  await rig.quiet();
}

async function triggerOnce(rig: Rig, trigger: PathTrigger, run: number): Promise<void> {
  await (trigger.prepare ?? unhurried)(rig);
  rig.watch.reset();
  await trigger.fire(rig, run);
  await settled(rig.watch);
  await rig.quiet();
}

/** One more trigger under the CPU profiler: its sampled calls between files. */
async function sampleOnce(rig: Rig, coverage: CoverageWindow, trigger: PathTrigger, run: number): Promise<SampledCall[]> {
  await (trigger.prepare ?? unhurried)(rig);
  rig.watch.reset();
  await coverage.reset({ intervalUs: SAMPLING_US });
  await trigger.fire(rig, run);
  await settled(rig.watch);
  const calls = await coverage.sampledCalls();
  await rig.quiet();
  return calls;
}

interface Measured {
  outcome: string;
  windowMs: number;
  ran: RanFiles;
  /** The ranges of the functions that ran, in their scripts. */
  ranges: RanRange[];
  idle: RanFiles;
  calls: SampledCall[];
  closures?: ClosureFindings;
}

/** The CPU profile's sampling interval in a window (V8's default is 1 ms: too coarse to see short calls). */
const SAMPLING_US = 20;

/** The window: counters zeroed, the trigger, its outcome on the platform, the queues idle again; then an idle window as long. */
async function measureOnce(rig: Rig, coverage: CoverageWindow, trigger: PathTrigger, run: number): Promise<Measured> {
  await (trigger.prepare ?? unhurried)(rig);
  rig.watch.reset();
  await coverage.reset({ intervalUs: SAMPLING_US });
  const started = performance.now();
  const outcome = await trigger.fire(rig, run);
  await settled(rig.watch);
  // what the last answer set in motion in this turn (a log line, a metric) belongs to the trigger too
  await new Promise((resolve) => setImmediate(resolve));
  const { files: ran, ranges } = await coverage.take();
  const windowMs = performance.now() - started;
  const calls = await coverage.sampledCalls();
  await rig.quiet();
  await coverage.reset();
  await sleep(windowMs);
  const { files: idle } = await coverage.take();
  return { outcome, windowMs, ran, ranges, idle, calls };
}

/** The trigger's send went out, and every lease the queues handed out since the reset is back, the lanes idle. */
async function settled(watch: StoreWatch, timeoutMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!(watch.activity.outbox.closed > 0 && watch.settled())) {
    if (performance.now() - started > timeoutMs) throw new Error(`path-coverage: the trigger's work did not settle: ${JSON.stringify(watch.activity)}`);
    await sleep(2);
  }
}

function describePath(srcDir: string, trigger: PathTrigger, measured: Measured, reach: Set<string>): PathMeasurement {
  const files = [...measured.ran.entries()]
    .map(([file, functions]) => ({ file, layer: layerOf(file), functions, sandboxShared: reach.has(file), idle: measured.idle.has(file) }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const findings = layerFindings(
    srcDir,
    files.map((f) => f.file),
  );
  return {
    path: trigger.path,
    route: trigger.route,
    outcome: measured.outcome,
    windowMs: Math.round(measured.windowMs),
    fileCount: files.length,
    functionCount: files.reduce((n, f) => n + f.functions.length, 0),
    files,
    ...findings,
    sampledCalls: callFindings(uniqueCalls(measured.calls)),
    idleFiles: [...measured.idle.keys()].sort(),
    closures: measured.closures ?? closureFindings([], new Map(), 0),
  };
}

function uniqueCalls(calls: readonly SampledCall[]): SampledCall[] {
  return [...new Map(calls.map((c) => [`${c.from} ${c.fromFunction} ${c.to} ${c.toFunction}`, c])).values()];
}
