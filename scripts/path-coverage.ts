/**
 * How much of `src/` one trigger of each path runs: issue #25's targets ("the event path executes at
 * most 35 files of `src/` (excluding the sandbox and testing) ... and no call back up a layer; the cron
 * and alert paths likewise").
 *
 *   npx tsx scripts/path-coverage.ts [event|cron|alert|all] [--json] [--list] [--functions] [--samples=N] [--callers=N]
 *   npm run measure:paths          (all paths, the table)
 *
 * Method
 * - One process: the embedded sandbox and a real runtime over HTTP on loopback, sharing one adjustable
 *   clock (as `startPair` does), with three probe bots written to a temporary folder
 *   (scripts/path-coverage/probe-bots.ts): `pinger` answers `/ping` with a comment, `ticker` posts from
 *   an hourly cron slot, `alerter` forwards an Alertmanager input to a wall.
 * - The paths: event = an employee posts `/ping` (sandbox control API), the platform POSTs the signed
 *   delivery to /hooks/sandbox/pinger, the handler's `ctx.reply` goes through the outbox as a comment;
 *   cron = the clock is moved to 2 s before the ticker's slot (outside the window), the slot's timer
 *   fires, the job's `ctx.post` is sent; alert = POST /alerts/alerter/alertmanager (202), the post sent.
 * - Each path is triggered once to warm up (modules load lazily, caches fill), then measured once.
 * - Precise coverage through `node:inspector` (`Profiler.startPreciseCoverage({ callCount: true,
 *   detailed: true })` before anything is built); the window is `Profiler.takePreciseCoverage` (which
 *   zeroes the counters), the trigger, then `takePreciseCoverage` again once (1) the platform has what
 *   the trigger made (the sandbox's event bus shows the comment or post, no polling) and (2) the
 *   runtime's inbox and outbox gave back every lease they handed out and their lanes found nothing
 *   more (a proxy over the store, in scripts/, watches this without running store code).
 * - Counted: files under `src/` outside `src/sandbox/` and `src/testing/` with at least one function that
 *   ran in the window (called, or an async function resumed), and those functions. tsx names scripts by
 *   the `file://` URL of the `.ts` source, vitest by its path; both are mapped back to `src/`.
 *
 * What else may run in a window (V8 counts per process, not per request), and what the output says of it
 * - The sandbox is in the process: its own files are not counted, but the shared files it imports
 *   (api schemas, webhook signing, the clock, ...) run for it too. Files it reaches are marked `s`.
 * - Background timers: the workers' idle polling is set to 30 minutes (`pollMs`), so an idle lane waits
 *   for its `wake()`, as it does on the path; minute timers (heartbeat, rotations, conversation
 *   timeouts) may still fire. After each window an idle window of the same length (no trigger) is
 *   measured; files that ran in it too are marked `i` and listed per path.
 * - The cron window opens 250 ms before the slot; the jump that brings the clock there is outside it.
 *
 * Climbs back up a layer: static value imports among the files that ran (parsed with TypeScript), from a
 * layer to a higher one, in DESIGN.md's order "cli -> runtime -> (bots, scheduler, alerts, proxy) ->
 * outbox -> api" with docs/architecture.md's additions (console beside bots; clock, errors, tracing
 * shared):
 *   (entry: index.ts, helpers/) 6 > cli, conformance 5 > runtime 4 > bots, scheduler, alerts, proxy,
 *   console 3 > outbox 2 > api 1;  shared 0: store, templates, webhooks, clock, tracing, files at the top.
 * Type-only imports are listed apart (no call goes through them), and so is shared code importing a
 * layer.
 *
 * Calls up a layer ("calls up"): the imports cannot show a call through a function passed down (a hook,
 * a callback, an object's method handed in), so a CPU profile (`Profiler.start`, sampling every 20 us)
 * runs in the window and in `--samples=N` more triggers of the path (default 4); each edge of the
 * sampled call tree from a function of one layer to the nearest `src/` function of a higher layer below
 * it is listed (library frames between them skipped), and shared code calling into a layer apart. It is
 * a lower bound: a call made between two samples is not seen, so the list may grow from run to run.
 *
 * Function-valued dependencies carrying state (issue #25: "at most 5" per path; before the refactor "23
 * callbacks carrying state, assembled in 6 files" on the event path, "5 scheduler closures" on cron):
 * closures built in one file and called from code in another while the trigger runs
 * (scripts/path-coverage/closures.ts).
 * - Closures that ran: the window's functions (V8's ranges in the JavaScript tsx made, mapped through its
 *   inline source map to the `.ts` file) that are arrow functions, function expressions, object literal
 *   methods or function declarations inside another function; a class's methods, constructor, accessors
 *   and field initializers are not, nor module-scope functions (ordinary calls across files).
 * - Escape their file (static): the closure's value followed through its file with TypeScript's language
 *   service (variables, object and array literals, properties, returns and their calls, parameters of the
 *   file's functions) until it is an argument of a function declared or implemented in another file, or
 *   a name another file reads. A library keeps it (an array's `map`, a timer, a promise's `then`), but
 *   for `Object.freeze`/`assign`, containers' `set`/`push` and a `Proxy`'s traps.
 * - Called from another file (the count against the target): after the sampling runs, `--callers=N` more
 *   triggers (default 3) run with a breakpoint at each closure that ran whose condition notes the nearest
 *   `src/` frame below it (library frames skipped) and never pauses: exact for those triggers, not a
 *   sample. A closure called there only by its own file or from a library's queue (a timer, a resolved
 *   promise) is not counted; closures called from another file that the static check sees no way out
 *   for (a zod transform, called by the schema's parse) are listed apart.
 * - "made in N files": the files those closures are made in. `--list` lists them: file:line, the function
 *   they are made in, the property or parameter they are handed over as, the first file they reach, and
 *   their callers in other files with the calls.
 *
 * Not measured: issue #25's "the deployment is resolved once per trigger"; `--functions` prints each
 * file's functions with their call counts (those of src/runtime/deployments.ts among them), which is
 * where to look for it.
 *
 * Run it under tsx (as above): vitest's module transform adds a function per export, which V8 counts, so
 * in-process figures under vitest (test/scripts/path-coverage.test.ts) are higher.
 */
import { PATH_NAMES, type PathName } from './path-coverage/triggers';
import { measurePaths } from './path-coverage/measure';
import { textReport } from './path-coverage/report';

export { measurePaths } from './path-coverage/measure';
export type { FileRun, MeasureOptions, PathMeasurement } from './path-coverage/measure';
export type { ClosureFindings, ClosureRun } from './path-coverage/closures';
export { PATH_NAMES, type PathName } from './path-coverage/triggers';

interface Args {
  paths: PathName[];
  json: boolean;
  list: boolean;
  functions: boolean;
  samplingRuns: number | undefined;
  callerRuns: number | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { paths: [...PATH_NAMES], json: false, list: false, functions: false, samplingRuns: undefined, callerRuns: undefined };
  for (const arg of argv) {
    const samples = /^--samples=(\d+)$/.exec(arg);
    const callers = /^--callers=(\d+)$/.exec(arg);
    if (samples) args.samplingRuns = Number(samples[1]);
    else if (callers) args.callerRuns = Number(callers[1]);
    else if (arg === '--json') args.json = true;
    else if (arg === '--list') args.list = true;
    else if (arg === '--functions') args.functions = true;
    else if (arg === 'all') args.paths = [...PATH_NAMES];
    else if ((PATH_NAMES as readonly string[]).includes(arg)) args.paths = [arg as PathName];
    else
      throw new Error(
        `path-coverage: unknown argument "${arg}" (usage: path-coverage.ts [event|cron|alert|all] [--json] [--list] [--functions] [--samples=N] [--callers=N])`,
      );
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const paths = await measurePaths({
    paths: args.paths,
    ...(args.samplingRuns === undefined ? {} : { samplingRuns: args.samplingRuns }),
    ...(args.callerRuns === undefined ? {} : { callerRuns: args.callerRuns }),
  });
  process.stdout.write(args.json ? `${JSON.stringify({ paths }, null, 2)}\n` : `${textReport(paths, args)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
