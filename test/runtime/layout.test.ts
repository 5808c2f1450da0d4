// issue #25, item 5: src/runtime/ is split by feature, its top level keeps assembly and lifecycle, and each
// route plugin is given only the parts it uses. These tests keep it so.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const RUNTIME = join(SRC, 'runtime');
const RUNTIME_PARTS = join(RUNTIME, 'runtime-parts.ts');
/** Where parts are handed to routes: the assembly alone may know `RuntimeParts` and register routes. */
const ASSEMBLY = new Set(['runtime/mount-routes.ts', 'runtime/build-runtime.ts']);
const MAX_TOP_LEVEL = 12;

/** Every `.ts` file under `dir`, as paths relative to `src/`. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => relative(SRC, join(dir, file)).split('\\').join('/'));
}

/** The relative imports of a `src/` file, resolved to `src/` paths (`x` -> `x.ts` or `x/index.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => {
    const target = resolve(dirname(join(SRC, file)), specifier);
    return target.endsWith('.ts') ? target : `${target}.ts`;
  });
}

/** A file that declares routes: on an app or scope (`app.get(`, `.route(`, `.register(`), or through a `register...(app` helper. */
function registersRoutes(file: string): boolean {
  const text = readFileSync(join(SRC, file), 'utf8');
  return /\b(?:app|admin|scope|api|host)\.(?:get|post|put|delete|patch|all|route|register)\s*[<(]/.test(text) || /\bregister[A-Z]\w*\(\s*app\b/.test(text);
}

describe('the layout of src/runtime/', () => {
  it(`keeps at most ${MAX_TOP_LEVEL} files at its top level (assembly and lifecycle), the features in folders`, () => {
    const top = readdirSync(RUNTIME, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
    expect(top.length, top.map((entry) => entry.name).join(', ')).toBeLessThanOrEqual(MAX_TOP_LEVEL);
  });

  it('gives no route plugin the whole RuntimeParts: only the assembly imports it among the files that declare routes', () => {
    const routeFiles = [...sourcesUnder(RUNTIME), ...sourcesUnder(join(SRC, 'console'))].filter(registersRoutes);
    // the hook, report, delivery, job, pause, rotation, admin, ops, alert, proxy and console routes at least
    expect(routeFiles.length).toBeGreaterThanOrEqual(11);
    const seeingParts = routeFiles
      .filter((file) => !ASSEMBLY.has(file))
      .filter((file) => importsOf(file).includes(RUNTIME_PARTS) || /\bRuntimeParts\b/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(seeingParts).toEqual([]);
  });

  it("keeps the console's wiring in src/console/, importing nothing from src/runtime/ (layers point one way)", () => {
    const upward = sourcesUnder(join(SRC, 'console')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`${RUNTIME}/`))
        .map((target) => `${file} -> ${relative(SRC, target)}`),
    );
    expect(upward).toEqual([]);
  });
});
