import { Session } from 'node:inspector/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A function of a `src/` file that ran in a window, with how often V8 counted it. */
export interface RanFunction {
  /** V8's name: `''` for an anonymous function or arrow, `get x` for a getter. */
  name: string;
  /** Calls in the window (0 for an async function only resumed in it, see `ranIn`). */
  calls: number;
}

/** Per `src/` file (relative to `src/`, `/`-separated): the functions that ran in the window. */
export type RanFiles = Map<string, RanFunction[]>;

interface V8Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface V8Function {
  functionName: string;
  ranges: V8Range[];
}
interface V8Script {
  url: string;
  functions: V8Function[];
}

/** A caller in one `src/` file seen (sampled) calling a function of another, directly or through library frames. */
export interface SampledCall {
  from: string;
  fromFunction: string;
  to: string;
  toFunction: string;
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
}

/** Files under `src/` that are not counted: the emulated platform and the test helpers. */
const NOT_COUNTED = [/^sandbox\//, /^testing\//];

/**
 * Precise V8 coverage of this process (this thread, under a worker), through `node:inspector`:
 * `start` once, `reset` at the start of a window, `take` at its end. V8's counters are per process,
 * so a window holds whatever ran in it: the trigger, and any timer that fired meanwhile.
 */
export class CoverageWindow {
  private readonly session = new Session();
  private sampling = false;

  constructor(private readonly srcDir: string) {}

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  /** Zeroes the counters (taking precise coverage resets them); with `sampling`, a CPU profile starts too. */
  async reset(sampling?: { intervalUs: number }): Promise<void> {
    if (sampling) {
      await this.session.post('Profiler.setSamplingInterval', { interval: sampling.intervalUs });
      await this.session.post('Profiler.start');
      this.sampling = true;
    }
    await this.session.post('Profiler.takePreciseCoverage');
  }

  /** The calls between `src/` files that the CPU profile sampled since `reset({ sampling })`, caller first. */
  async sampledCalls(): Promise<SampledCall[]> {
    if (!this.sampling) return [];
    this.sampling = false;
    const { profile } = (await this.session.post('Profiler.stop')) as { profile: CpuProfile };
    return callsBetweenFiles(profile, (url) => this.srcFileOf(url));
  }

  /** What ran since the last reset, in the counted files of `src/`. */
  async take(): Promise<RanFiles> {
    const { result } = (await this.session.post('Profiler.takePreciseCoverage')) as { result: V8Script[] };
    const files: RanFiles = new Map();
    for (const script of result) {
      const file = this.srcFileOf(script.url);
      if (file === undefined || NOT_COUNTED.some((re) => re.test(file))) continue;
      const ran = script.functions.filter(ranIn).map((f) => ({ name: f.functionName, calls: f.ranges[0]?.count ?? 0 }));
      // a module loaded twice (vitest beside a native import) is one file: its runs add up
      if (ran.length > 0) files.set(file, [...(files.get(file) ?? []), ...ran]);
    }
    return files;
  }

  async stop(): Promise<void> {
    if (this.sampling) await this.session.post('Profiler.stop');
    this.sampling = false;
    await this.session.post('Profiler.stopPreciseCoverage');
    await this.session.post('Profiler.disable');
    this.session.disconnect();
  }

  /**
   * A script's URL as a path relative to `src/`, or undefined outside it. tsx names scripts by their
   * `file://` URL of the `.ts` file; vitest (vite-node) by the plain path, sometimes with a query.
   */
  private srcFileOf(url: string): string | undefined {
    if (!url) return undefined;
    const bare = url.replace(/[?#].*$/, '');
    let path: string;
    try {
      path = bare.startsWith('file:') ? fileURLToPath(bare) : bare;
    } catch {
      return undefined;
    }
    const rel = relative(this.srcDir, path);
    if (rel.startsWith('..') || rel === '' || !/\.[cm]?ts$/.test(rel)) return undefined;
    return rel.split(sep).join('/');
  }
}

/**
 * A function ran in the window when V8 counted a call of it, or any block of it: an async function
 * called before the window and resumed inside it (a worker lane's loop after an `await`) has a call
 * count of 0 but counted blocks. Functions compiled before coverage started report calls only.
 */
function ranIn(fn: V8Function): boolean {
  return fn.ranges.some((range) => range.count > 0);
}

/**
 * Every edge of the sampled call tree from a frame of one `src/` file to the nearest `src/` frame below it
 * in another file (frames of node_modules and Node between them skipped). A tree holds only the stacks
 * sampled, so this is a lower bound of the calls made; a short call between two samples is not seen.
 */
function callsBetweenFiles(profile: CpuProfile, fileOf: (url: string) => string | undefined): SampledCall[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const calls = new Map<string, SampledCall>();
  const walk = (node: CpuProfileNode, caller: { file: string; fn: string } | undefined): void => {
    const file = fileOf(node.callFrame.url);
    const here = file === undefined || NOT_COUNTED.some((re) => re.test(file)) ? undefined : { file, fn: node.callFrame.functionName };
    if (here && caller && caller.file !== here.file) {
      const call = { from: caller.file, fromFunction: caller.fn, to: here.file, toFunction: here.fn };
      calls.set(JSON.stringify(call), call);
    }
    // a frame outside the counted files (a library, the sandbox) passes its caller on
    const next = here ?? (file === undefined ? caller : undefined);
    for (const child of node.children ?? []) {
      const c = byId.get(child);
      if (c) walk(c, next);
    }
  };
  const root = profile.nodes[0];
  if (root) walk(root, undefined);
  return [...calls.values()];
}
