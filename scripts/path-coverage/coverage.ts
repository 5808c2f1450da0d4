import { Session } from 'node:inspector/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RanRange } from './closures';

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
  scriptId: string;
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

/** What ran in a window: per file, and each function's range in its script (for the closures). */
export interface Taken {
  files: RanFiles;
  ranges: RanRange[];
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
  private debugging = false;
  private readonly sources = new Map<string, Promise<string>>();

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
  async take(): Promise<Taken> {
    const { result } = (await this.session.post('Profiler.takePreciseCoverage')) as { result: V8Script[] };
    const files: RanFiles = new Map();
    const ranges: RanRange[] = [];
    for (const script of result) {
      const file = this.srcFileOf(script.url);
      if (file === undefined || NOT_COUNTED.some((re) => re.test(file))) continue;
      const ranFunctions = script.functions.filter(ranIn);
      const ran = ranFunctions.map((f) => ({ name: f.functionName, calls: f.ranges[0]?.count ?? 0 }));
      // a module loaded twice (vitest beside a native import) is one file: its runs add up
      if (ran.length > 0) files.set(file, [...(files.get(file) ?? []), ...ran]);
      for (const f of ranFunctions) {
        const range = f.ranges[0];
        if (range) ranges.push({ file, scriptId: script.scriptId, name: f.functionName, startOffset: range.startOffset, endOffset: range.endOffset });
      }
    }
    return { files, ranges };
  }

  /**
   * The source V8 ran for a script (tsx's or vite-node's JavaScript, with its inline source map). It
   * turns the debugger on (until `watchCallers(...).stop()`): call it after a window, not in one.
   */
  scriptSource(scriptId: string): Promise<string> {
    let source = this.sources.get(scriptId);
    if (!source) {
      source = this.debuggerOn().then(async () => {
        const { scriptSource } = (await this.session.post('Debugger.getScriptSource', { scriptId })) as { scriptSource: string };
        return scriptSource;
      });
      source.catch(() => this.sources.delete(scriptId));
      this.sources.set(scriptId, source);
    }
    return source;
  }

  /**
   * Who calls each of `functions` from now until `stop()`: a breakpoint at each one's first breakable
   * place, whose condition notes the caller (the nearest frame of a `src/` file below it, library frames
   * skipped) and is false, so nothing pauses. Exact for the calls made meanwhile, unlike the profile's
   * samples; slower, so never in a window. `stop()` removes the breakpoints and turns the debugger off.
   */
  async watchCallers(functions: ReadonlyArray<WatchedFunction>): Promise<{ stop(): Promise<Map<string, ObservedCalls>> }> {
    await this.debuggerOn();
    const observed = new Map<string, ObservedCalls>();
    const note = (key: string): void => {
      const caller = callerOutside((url) => this.srcFileOf(url));
      const calls = observed.get(key) ?? { calls: 0, from: new Map<string, number>() };
      calls.calls += 1;
      if (caller) calls.from.set(caller, (calls.from.get(caller) ?? 0) + 1);
      observed.set(key, calls);
    };
    (globalThis as Record<string, unknown>)[CALLER_HOOK] = note;
    const breakpoints: string[] = [];
    const lines = new Map<string, number[]>();
    for (const fn of functions) {
      let starts = lines.get(fn.scriptId);
      if (!starts) lines.set(fn.scriptId, (starts = lineStarts(await this.scriptSource(fn.scriptId))));
      const place = (offset: number): { scriptId: string; lineNumber: number; columnNumber: number } => {
        let lineNumber = starts.findIndex((start) => start > offset) - 1;
        if (lineNumber < 0) lineNumber = lineNumber === -2 ? starts.length - 1 : 0;
        return { scriptId: fn.scriptId, lineNumber, columnNumber: offset - starts[lineNumber]! };
      };
      const { locations } = (await this.session.post('Debugger.getPossibleBreakpoints', {
        start: place(fn.startOffset),
        end: place(fn.endOffset),
        restrictToFunction: true,
      })) as { locations: Array<{ scriptId: string; lineNumber: number; columnNumber: number }> };
      const first = locations[0];
      if (!first) continue;
      const condition = `globalThis[${JSON.stringify(CALLER_HOOK)}]?.(${JSON.stringify(fn.key)}), false`;
      try {
        const { breakpointId } = (await this.session.post('Debugger.setBreakpoint', { location: first, condition })) as { breakpointId: string };
        breakpoints.push(breakpointId);
      } catch {
        // two functions starting at one place (a breakpoint there already): the first one's is kept
      }
    }
    return {
      stop: async () => {
        for (const breakpointId of breakpoints) await this.session.post('Debugger.removeBreakpoint', { breakpointId });
        delete (globalThis as Record<string, unknown>)[CALLER_HOOK];
        await this.debuggerOff();
        return observed;
      },
    };
  }

  private async debuggerOn(): Promise<void> {
    if (this.debugging) return;
    this.debugging = true;
    await this.session.post('Debugger.enable');
  }

  private async debuggerOff(): Promise<void> {
    if (!this.debugging) return;
    this.debugging = false;
    await this.session.post('Debugger.disable');
  }

  async stop(): Promise<void> {
    if (this.sampling) await this.session.post('Profiler.stop');
    this.sampling = false;
    await this.debuggerOff();
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

/** A function to watch the callers of, by its range in its script (as coverage gives it). */
export interface WatchedFunction {
  key: string;
  scriptId: string;
  startOffset: number;
  endOffset: number;
}

/** A watched function's calls, and of them those from other `src/` files, by caller (`file function`). */
export interface ObservedCalls {
  calls: number;
  from: Map<string, number>;
}

/** The global the breakpoints' conditions call (set only while `watchCallers` watches). */
const CALLER_HOOK = '__pathCoverageCaller';

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * From a breakpoint's condition: the caller of the function paused in, as `file function`, when it is in
 * another `src/` file than the function. The stack is the hook, the condition's `eval`, the function,
 * then its callers; frames outside `src/` (libraries, Node) between them are skipped.
 */
function callerOutside(fileOf: (url: string) => string | undefined): string | undefined {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  let frames: NodeJS.CallSite[] = [];
  try {
    Error.stackTraceLimit = 40;
    Error.prepareStackTrace = (_error, callSites) => callSites;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder);
    frames = holder.stack as NodeJS.CallSite[];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
  const evalAt = frames.findIndex((frame) => frame.isEval() || !frame.getFileName());
  const own = frames[evalAt + 1];
  const ownFile = own && fileOf(own.getFileName() ?? '');
  if (evalAt < 0 || ownFile === undefined) return undefined;
  for (const frame of frames.slice(evalAt + 2)) {
    const file = fileOf(frame.getFileName() ?? '');
    if (file === undefined) continue;
    return file === ownFile ? undefined : `${file} ${frame.getFunctionName() ?? '(anonymous)'}`;
  }
  return undefined;
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
