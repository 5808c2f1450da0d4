import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The layer order of DESIGN.md ("Layers point one way: cli -> runtime -> (bots, scheduler, alerts,
 * proxy) -> outbox -> api, and everything may use store, templates and webhooks"), with the folders
 * docs/architecture.md adds: console beside bots, and clock, errors and tracing among the shared ones.
 * Higher imports lower. `index.ts` and `helpers/` are the package's entry points (barrels over every
 * layer), above all; conformance is a command of the CLI. Shared code (rank 0) may be used by anyone.
 */
export const LAYER_RANKS: Readonly<Record<string, number>> = {
  api: 1,
  outbox: 2,
  bots: 3,
  scheduler: 3,
  alerts: 3,
  proxy: 3,
  console: 3,
  runtime: 4,
  cli: 5,
  conformance: 5,
  '(entry)': 6,
  store: 0,
  templates: 0,
  webhooks: 0,
  clock: 0,
  tracing: 0,
  '(root)': 0,
};

/** The layer a `src/`-relative file belongs to: its top folder, `(root)` for a file at the top, `(entry)` for the barrels. */
export function layerOf(file: string): string {
  if (file === 'index.ts' || file.startsWith('helpers/')) return '(entry)';
  const slash = file.indexOf('/');
  return slash < 0 ? '(root)' : file.slice(0, slash);
}

export function rankOf(file: string): number | undefined {
  return LAYER_RANKS[layerOf(file)];
}

/** A static import of one `src/` file by another. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`, or every name imported is a type: no call can go through it. */
  typeOnly: boolean;
}

/** The `src/` files a file imports (relative specifiers and `import('...')` literals), resolved to files. */
export function importsOf(srcDir: string, file: string): ImportEdge[] {
  const path = join(srcDir, file);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    const target = resolveImport(srcDir, path, specifier);
    if (target !== undefined) edges.push({ from: file, to: target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, importIsTypeOnly(node));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, exportIsTypeOnly(node));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** `./x`, `./x.js`, `./x.ts` or a folder with `index.ts`, relative to `from`; undefined for a package or outside `src/`. */
function resolveImport(srcDir: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
  const found = candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
  if (!found) return undefined;
  const rel = relative(srcDir, found);
  return rel.startsWith('..') ? undefined : rel.split(sep).join('/');
}

/** What the static imports among a set of files say about the layers. */
export interface LayerFindings {
  /** A layered file importing (for its values) a file of a higher layer: a climb back up. */
  climbs: ImportEdge[];
  /** The same with types only: no call, but the lower layer knows the higher one's shapes. */
  typeClimbs: ImportEdge[];
  /** Shared code (store, templates, webhooks, clock, tracing, top files) importing a layer's values. */
  sharedIntoLayers: ImportEdge[];
}

/** The climbs among `files`: edges whose two ends are both in the set. */
export function layerFindings(srcDir: string, files: Iterable<string>): LayerFindings {
  const set = new Set(files);
  const findings: LayerFindings = { climbs: [], typeClimbs: [], sharedIntoLayers: [] };
  for (const file of set) {
    for (const edge of importsOf(srcDir, file)) {
      if (!set.has(edge.to)) continue;
      const from = rankOf(edge.from);
      const to = rankOf(edge.to);
      if (from === undefined || to === undefined || to <= from) continue;
      if (from === 0) {
        if (!edge.typeOnly) findings.sharedIntoLayers.push(edge);
      } else (edge.typeOnly ? findings.typeClimbs : findings.climbs).push(edge);
    }
  }
  return findings;
}

/**
 * The files outside `src/sandbox/` that the sandbox's code reaches through value imports: their runs in
 * a window may be the emulated platform's (signing a delivery, checking a request against a schema),
 * not the runtime's, since coverage cannot tell callers apart.
 */
export function sandboxReach(srcDir: string): Set<string> {
  const queue = listTs(join(srcDir, 'sandbox')).map((p) => relative(srcDir, p).split(sep).join('/'));
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const edge of importsOf(srcDir, file)) {
      if (edge.typeOnly || seen.has(edge.to)) continue;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return new Set([...seen].filter((f) => !f.startsWith('sandbox/')));
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A call seen in the CPU profile, from a file's function to another file's, with the layers it crossed. */
export interface CallEdge {
  from: string;
  fromFunction: string;
  to: string;
  toFunction: string;
}

/**
 * The sampled calls that go up: from a layer to a higher one (`climbs`), and from shared code into a
 * layer (`sharedIntoLayers`). No import goes that way, so each is a function handed down (a hook, a
 * callback, a method of an object passed in) and called from below.
 */
export function callFindings(calls: readonly CallEdge[]): { climbs: CallEdge[]; sharedIntoLayers: CallEdge[] } {
  const climbs: CallEdge[] = [];
  const sharedIntoLayers: CallEdge[] = [];
  for (const call of calls) {
    const from = rankOf(call.from);
    const to = rankOf(call.to);
    if (from === undefined || to === undefined || to <= from) continue;
    (from === 0 ? sharedIntoLayers : climbs).push(call);
  }
  const order = (a: CallEdge, b: CallEdge): number => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.toFunction.localeCompare(b.toFunction);
  return { climbs: climbs.sort(order), sharedIntoLayers: sharedIntoLayers.sort(order) };
}
