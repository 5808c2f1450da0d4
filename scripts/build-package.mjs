// Builds the package intrabot publishes (npm run build, and npm pack's prepack) into dist/:
// - JavaScript: ES modules for the entry points, the CLI and its commands, sharing chunks (each source
//   module exists once, so an `instanceof` holds across entry points), with linked source maps that
//   carry the sources (src/ is not in the tarball). Packages stay imports of packages.
// - Declarations: tsc emits one .d.ts per source file (internal members left out), and rollup bundles
//   them per entry point (dist/index.d.ts, dist/testing/index.d.ts, dist/helpers/index.d.ts, sharing
//   chunks under dist/types/), so a consumer's TypeScript resolves them under any moduleResolution
//   (NodeNext refuses extensionless relative specifiers in declarations).
// - A check that the declarations name no package a consumer would lack (dev dependencies' types).
// - The web pages' static files (console, playground, shared), copied to dist/<same folder>.
// - The example bots that stand alone (no file reaches outside its folder), copied to dist/examples/:
//   the templates of `intrabot new <name> --from <example>`.
//
// The CLI's own start-up build (bin/build.mjs, .build/<key>/) is another thing: in this repository
// `intrabot` runs from it; an installed package runs from dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
/** The package's entry points (package.json `exports`), by their path under src/ without `.ts`. */
export const ENTRIES = ['index', 'testing/index', 'helpers/index'];
/** Packages a consumer has: intrabot's dependencies, and Node's own types. */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const ALLOWED_TYPE_PACKAGES = new Set([...Object.keys(pkg.dependencies ?? {}), 'node']);

/**
 * What is loaded by path: the package's entry points, the CLI, and its commands (src/cli/main.ts finds
 * them by listing `cli/commands/`). Everything else lives in shared chunks, each module once.
 */
function javaScriptEntries() {
  const commands = readdirSync(join(SRC, 'cli', 'commands'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `cli/commands/${f.slice(0, -3)}`);
  return [...ENTRIES, 'cli/main', ...commands].map((entry) => join(SRC, `${entry}.ts`));
}

async function buildJavaScript() {
  const { build } = await import('esbuild');
  await build({
    entryPoints: javaScriptEntries(),
    outbase: SRC,
    outdir: DIST,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // packages are the consumer's (dependencies): a bundled copy of Fastify or zod would be another
    // Fastify or zod than the consumer's
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: true,
    logLevel: 'error',
  });
}

/** tsc's declarations, one per source file, into `dir` (outside node_modules, which the bundler would leave out). */
function emitDeclarations(dir) {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', dir], { stdio: 'inherit' });
}

async function bundleDeclarations(types) {
  const { rollup } = await import('rollup');
  const { dts } = await import('rollup-plugin-dts');
  const bundle = await rollup({
    input: Object.fromEntries(ENTRIES.map((entry) => [entry, join(types, `${entry}.d.ts`)])),
    plugins: [dts({ respectExternal: false })],
    // packages are the consumer's to resolve (intrabot's dependencies), never inlined
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    onwarn(warning, warn) {
      if (warning.code === 'CIRCULAR_DEPENDENCY') return;
      warn(warning);
    },
  });
  await bundle.write({
    dir: DIST,
    format: 'es',
    entryFileNames: '[name].d.ts',
    chunkFileNames: (chunk) => `types/${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
  });
  await bundle.close();
}

function declarationFiles(dir = DIST) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...declarationFiles(path));
    else if (entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`). */
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Declarations that import a package a consumer does not install would fail to type-check there, and a
 * relative import that does not name a bundled file (`./x.js` for `./x.d.ts`) fails under NodeNext.
 */
function checkDeclarationImports() {
  const problems = [];
  for (const file of declarationFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]|reference\s+types=['"]([^'"]+)['"]/g)) {
      const spec = match[1] ?? match[2];
      if (spec.startsWith('.')) {
        if (!spec.endsWith('.js') || !existsSync(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'))))
          problems.push(`${relative(ROOT, file)} imports ${spec}`);
      } else if (!isBuiltin(spec) && !ALLOWED_TYPE_PACKAGES.has(packageOf(spec))) {
        problems.push(`${relative(ROOT, file)} imports ${spec}`);
      }
    }
  }
  if (problems.length) throw new Error(`declarations a consumer could not resolve:\n  ${problems.join('\n  ')}`);
}

export async function buildPackage() {
  rmSync(DIST, { recursive: true, force: true });
  await buildJavaScript();
  const types = mkdtempSync(join(tmpdir(), 'intrabot-types-'));
  try {
    emitDeclarations(types);
    await bundleDeclarations(types);
  } finally {
    rmSync(types, { recursive: true, force: true });
  }
  checkDeclarationImports();
  // the web pages (the console, the sandbox's playground, their shared files) are served as files (no
  // build step): shipped beside the build, where src/web/page-assets.ts looks for them when src/ is not there
  for (const folder of [
    ['console', 'public'],
    ['web', 'public'],
    ['sandbox', 'playground', 'public'],
  ]) {
    cpSync(join(SRC, ...folder), join(DIST, ...folder), { recursive: true });
  }
  copyExampleBots();
}

/** What in a bot's file reaches outside its folder: the repository's shared fixtures, intrabot's sources. */
const OUTSIDE = /test\/fixtures\/|\.\.\/\.\.\/src\/|from '\.\.\/\.\.\//;

/** Files under `dir`, relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * The example bots (`example: true`) whose files all stay inside their folder, copied to dist/examples/
 * for `intrabot new --from`; the others are named, so a maintainer sees why one is not a template.
 */
function copyExampleBots() {
  const bots = join(ROOT, 'bots');
  const skipped = [];
  for (const name of readdirSync(bots).sort()) {
    const manifest = join(bots, name, 'bot.yaml');
    if (!existsSync(manifest) || !/^example:\s*true\s*$/m.test(readFileSync(manifest, 'utf8'))) continue;
    const outside = filesUnder(join(bots, name)).filter(
      (file) => /\.(ts|ya?ml|hbs|json)$/.test(file) && OUTSIDE.test(readFileSync(join(bots, name, file), 'utf8')),
    );
    if (outside.length > 0) skipped.push(`${name} (${outside.join(', ')})`);
    else cpSync(join(bots, name), join(DIST, 'examples', name), { recursive: true });
  }
  if (skipped.length > 0) console.log(`intrabot: example bots that reach outside their folder are not templates: ${skipped.join('; ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildPackage();
  console.log(`intrabot: built ${relative(process.cwd(), DIST) || DIST}`);
}
