import type { ClosureFindings, ClosureRun } from './closures';
import { LAYER_RANKS, type CallEdge, type ImportEdge } from './layers';
import type { FileRun, PathMeasurement } from './measure';

/** Issue #25's targets, per path ("at most 5 function-valued dependencies carrying state": `closures`). */
export const TARGETS = { files: 35, climbs: 0, closures: 5 };

/** Issue #25's table of the code before the refactor, for comparison. */
const BEFORE: Record<string, string> = {
  event: '79 files, 324 functions, 23 callbacks carrying state (6 files)',
  cron: '~66 files, 295 functions, 5 scheduler closures',
  alert: '74 files, 334 functions',
};

export interface ReportOptions {
  list: boolean;
  functions: boolean;
}

/** The table, then per path what else may have run, the climbs and (with `list`) the files by layer. */
export function textReport(paths: readonly PathMeasurement[], options: ReportOptions): string {
  const lines = [
    'Trigger paths through src/ (src/sandbox/ and src/testing/ not counted), one warmed-up trigger each, V8 precise coverage',
    '',
    table(paths),
    '',
    `targets (issue #25): at most ${TARGETS.files} files of src/ per path, no call back up a layer, at most ${TARGETS.closures} function-valued dependencies carrying state`,
    'climbs: static value imports, among the files that ran, from a layer to a higher one (order: scripts/path-coverage.ts);',
    'calls up: calls from a layer into a higher one the CPU profiler sampled (a lower bound: functions handed down and called from below)',
    'closures out: closures (functions made inside a function, not class members) that ran and whose value leaves the file they are made in',
    '  (static, through the TypeScript language service); called: of them, called from code of another file in the observed triggers',
    '  (breakpoints noting each caller): the function-valued dependencies carrying state; made in: the files those are made in',
    "s = the sandbox (in the same process) imports this file too, so some of its runs may be the platform's;",
    'i = it ran in an idle window of the same length too (background work, not the trigger)',
  ];
  for (const path of paths) lines.push('', ...pathDetails(path, options));
  return lines.join('\n');
}

function table(paths: readonly PathMeasurement[]): string {
  const rows = [
    ['path', 'route', 'files', 'functions', 'climbs', 'calls up', 'closures out', 'called', 'made in', 's files', 'i files', 'window', 'before (issue #25)'],
  ];
  for (const p of paths) {
    rows.push([
      p.path,
      p.route,
      String(p.fileCount),
      String(p.functionCount),
      String(p.climbs.length),
      String(p.sampledCalls.climbs.length),
      String(p.closures.escaping.length),
      String(p.closures.calledFromOtherFile),
      String(p.closures.calledFiles.length),
      String(p.files.filter((f) => f.sandboxShared).length),
      String(p.files.filter((f) => f.idle).length),
      `${p.windowMs} ms`,
      BEFORE[p.path] ?? '',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  return rows
    .map((r) =>
      r
        .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function pathDetails(p: PathMeasurement, options: ReportOptions): string[] {
  const lines = [`## ${p.path}: ${p.route}`, `outcome: ${p.outcome}`];
  const c = p.closures;
  const target = p.fileCount <= TARGETS.files && p.climbs.length <= TARGETS.climbs && c.calledFromOtherFile <= TARGETS.closures ? 'meets' : 'misses';
  lines.push(
    `${p.fileCount} files, ${p.functionCount} functions, ${p.climbs.length} climbs, ${c.calledFromOtherFile} function-valued dependencies carrying state: ${target} the target`,
  );
  lines.push(`idle window (${p.windowMs} ms, no trigger): ${p.idleFiles.length ? p.idleFiles.join(', ') : 'nothing of src/ ran'}`);
  lines.push(...edges('climbs back up a layer', p.climbs), ...edges('type-only imports up a layer (no call)', p.typeClimbs));
  lines.push(...edges('shared code importing a layer', p.sharedIntoLayers));
  lines.push(...calls('calls up a layer, sampled (functions handed down)', p.sampledCalls.climbs));
  lines.push(...calls('calls from shared code into a layer, sampled', p.sampledCalls.sharedIntoLayers));
  lines.push(...closureLines(c, new Set(p.files.filter((f) => f.sandboxShared).map((f) => f.file)), options.list));
  if (options.list || options.functions) lines.push('', ...fileList(p.files, options.functions));
  return lines;
}

/** The function-valued dependencies: the counts, and with `list` each closure and where it goes. */
function closureLines(c: ClosureFindings, shared: ReadonlySet<string>, list: boolean): string[] {
  const lines = [
    `closures that ran: ${c.ran}; escape their file (static): ${c.escaping.length}, made in ${plural(c.files.length, 'file')}; ` +
      `of them called from another file (observed in ${plural(c.observedTriggers, 'trigger')}): ${c.calledFromOtherFile}, made in ${plural(c.calledFiles.length, 'file')}`,
    `  made in: ${c.calledFiles.join(', ') || 'none'}`,
  ];
  if (c.calledButNotEscaping.length > 0)
    lines.push(
      `closures called from another file with no way out the static check follows (through a library: a schema's transform, a proxy): ${c.calledButNotEscaping.length}`,
    );
  if (!list) return lines;
  if (c.escaping.length > 0) {
    lines.push(
      'closures out of their file (x: called from another file; s: the sandbox imports the file): file:line  made in  as  how -> first file reached  calls',
    );
    lines.push(...c.escaping.map((run) => closureLine(run, shared)));
  }
  if (c.calledButNotEscaping.length > 0) {
    lines.push('called from another file, no way out found statically:');
    lines.push(...c.calledButNotEscaping.map((run) => closureLine(run, shared)));
  }
  return lines;
}

function closureLine(run: ClosureRun, shared: ReadonlySet<string>): string {
  const callers = Object.entries(run.calledFrom);
  const flags = `${callers.length > 0 ? 'x' : ' '}${shared.has(run.file) ? 's' : ' '}`;
  const place = `${run.file}:${run.line}`;
  const escape = run.escape ? `as ${run.escape.as}: ${run.escape.via} -> ${run.escape.to}` : `(${run.kind})`;
  const calls = callers.length > 0 ? `×${run.calls}, from ${callers.map(([caller, n]) => `${caller} ×${n}`).join(', ')}` : `×${run.calls}`;
  return `  ${flags} ${place}  in ${run.enclosing}  ${escape}  ${calls}`;
}

function edges(title: string, list: readonly ImportEdge[]): string[] {
  if (list.length === 0) return [`${title}: none`];
  return [`${title}: ${list.length}`, ...list.map((e) => `  ${e.from} -> ${e.to}`)];
}

function calls(title: string, list: readonly CallEdge[]): string[] {
  if (list.length === 0) return [`${title}: none seen`];
  const fn = (name: string): string => name || '(anonymous)';
  return [`${title}: ${list.length}`, ...list.map((c) => `  ${c.from} ${fn(c.fromFunction)} -> ${c.to} ${fn(c.toFunction)}`)];
}

/** The files grouped by their top folder, highest layer first (shared code last), so a reader sees the layers. */
function fileList(files: readonly FileRun[], withFunctions: boolean): string[] {
  const byLayer = new Map<string, FileRun[]>();
  for (const f of files) byLayer.set(f.layer, [...(byLayer.get(f.layer) ?? []), f]);
  const width = Math.max(...files.map((f) => f.file.length)) + 2;
  const lines: string[] = [];
  for (const [layer, group] of [...byLayer.entries()].sort(([a], [b]) => (LAYER_RANKS[b] ?? -1) - (LAYER_RANKS[a] ?? -1) || a.localeCompare(b))) {
    lines.push(
      `${layer}/  (${plural(group.length, 'file')}, ${plural(
        group.reduce((n, f) => n + f.functions.length, 0),
        'function',
      )})`,
    );
    for (const f of group) {
      const flags = `${f.sandboxShared ? 's' : ' '}${f.idle ? 'i' : ' '}`;
      lines.push(`  ${flags} ${f.file.padEnd(width)}${String(f.functions.length).padStart(3)}${withFunctions ? `  ${functionNames(f)}` : ''}`);
    }
  }
  return lines;
}

function functionNames(f: FileRun): string {
  return f.functions.map((fn) => `${fn.name || '(anonymous)'} ×${fn.calls}`).join(', ');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
