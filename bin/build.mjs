// Builds intrabot's TypeScript sources (src/) into plain ES modules under `.build/<key>/`, once per
// version of the sources, so `intrabot start` runs without a TypeScript loader in the process: the
// loader's thread and its per-module source maps cost about 40 MB and half a second at every start.
//
// Every source file can be imported by its path (a bot compiled by src/bots/bot-bundler.ts imports
// `src/api/errors` and gets the very classes the runtime throws), yet each module exists once and a
// start loads few files: see "roots and facades" below. Plain JavaScript: it runs before anything
// could load TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const BUILDS = join(ROOT, '.build');
/** Older builds kept beside the current one (a process may still be running from one). */
const KEEP = 3;

function sourceFiles(dir = SRC) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files.sort();
}

/** A key for this version of the sources: paths, sizes and modification times, plus the lock file. */
function buildKey(files) {
  const hash = createHash('sha256');
  // this script too: how it builds is part of what a build is
  for (const file of [...files, join(ROOT, 'package-lock.json'), fileURLToPath(import.meta.url)]) {
    if (!existsSync(file)) continue;
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(ROOT, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

// node-cron forks a daemon file found from its own location for background tasks (not used, but kept whole)
const EXTERNAL_PACKAGES = ['better-sqlite3', 'esbuild', 'pino', 'pino-pretty', 'thread-stream', 'tsx', 'tsx/*', 'ioredis', 'pg', 'node-cron'];

/** What both passes of the build share. */
const COMMON = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  absWorkingDir: ROOT,
  // packages are bundled too: resolving and loading a few hundred small files at every start cost
  // ~300 ms. Kept outside: native modules, what runs in worker threads or child processes by file
  // path (pino's transports), what loads lazily (Redis, PostgreSQL), and the tsx fallback.
  external: EXTERNAL_PACKAGES,
  // bundled CommonJS packages require Node's built-ins
  banner: { js: "import { createRequire as __intrabotCreateRequire } from 'node:module'; const require = __intrabotCreateRequire(import.meta.url);" },
  logLevel: 'error',
};

/**
 * The directory of an up-to-date build, building it first when the sources changed. Safe when several
 * processes start at once: each builds into its own temporary directory and the first rename wins.
 */
export async function ensureBuild() {
  const files = sourceFiles();
  const key = buildKey(files);
  const dir = join(BUILDS, key);
  if (existsSync(join(dir, '.complete'))) return dir;
  const { build } = await import('esbuild');
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const modules = await readModules(build, files);
  const plan = planRoots(modules);
  await build({
    ...COMMON,
    entryPoints: [...plan.roots.keys()].map((root) => ({ in: `${BARREL}${root}`, out: relative('src', root).replace(/\.ts$/, '') })),
    outdir: tmp,
    plugins: [barrelPlugin(plan, modules)],
    sourcemap: 'linked',
  });
  writeFacades(tmp, plan, modules);
  writeFileSync(join(tmp, '.complete'), `${new Date().toISOString()}\n`);
  try {
    renameSync(tmp, dir);
  } catch {
    // another process finished the same build first: use theirs
    rmSync(tmp, { recursive: true, force: true });
  }
  prune(key);
  return dir;
}

/*
 * Why roots and facades. Every source file must stay importable by its path with the very bindings the
 * runtime uses (a compiled bot imports `src/api/errors` and gets the classes the runtime throws;
 * src/bots/bot-bundler.ts). Making every file an entry point of one split build does that, but esbuild
 * then gives nearly every module a chunk of its own (a chunk holds the modules the same entry points
 * reach), and `intrabot start` loaded ~550 files: Node 20's ES module loader spends ~0.4-0.6 ms on each
 * (resolve, read, compile, link), ~300 ms in all. So the build has few entry points, the "roots" (what
 * is loaded by path: the CLI, each command, the package's entry points, what is imported lazily), and
 * `start` loads ~60 files. Each root's output also exports, under mangled names, the bindings of the
 * modules it is the home of (the smallest root that reaches them), and every other source file becomes
 * a facade of one line re-exporting them by their own names: the same module, once.
 */
const BARREL = 'intrabot-barrel:';

/** `src/x/y.ts` -> its export names and the source files it imports (statically, lazily). */
async function readModules(build, files) {
  // a first pass with every file an entry point, not written: esbuild resolves each file's exports
  // (`export *` included) and its imports
  const { metafile } = await build({ ...COMMON, entryPoints: files, outbase: SRC, outdir: join(BUILDS, '.analysis'), write: false, metafile: true });
  const modules = new Map(files.map((file) => [relative(ROOT, file), { exports: [], imports: [], lazy: [] }]));
  for (const output of Object.values(metafile.outputs)) {
    const module = output.entryPoint && modules.get(output.entryPoint);
    if (module) module.exports = output.exports;
  }
  for (const [path, module] of modules) {
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      if (!modules.has(imported.path)) continue;
      if (imported.kind === 'dynamic-import') module.lazy.push(imported.path);
      else module.imports.push(imported.path);
    }
  }
  return modules;
}

/** The roots (each with the modules it statically reaches) and each module's home among them. */
function planRoots(modules) {
  const entry = (rel) => `src/${rel}`;
  const commands = [...modules.keys()].filter((path) => /^src\/cli\/commands\/[^/]+\.ts$/.test(path));
  const wanted = [entry('cli/main.ts'), ...commands, entry('index.ts'), entry('helpers/index.ts'), entry('testing/index.ts')];
  for (const module of modules.values()) wanted.push(...module.lazy);
  const roots = new Map();
  const reach = (root) => {
    const seen = new Set([root]);
    const stack = [root];
    while (stack.length) for (const next of modules.get(stack.pop()).imports) if (!seen.has(next) && seen.add(next)) stack.push(next);
    return seen;
  };
  for (const root of wanted) if (modules.has(root) && !roots.has(root)) roots.set(root, reach(root));
  // a file nothing loads by path nor reaches (a helper only tests use...) is a root of its own
  const reached = new Set([...roots.values()].flatMap((set) => [...set]));
  for (const path of modules.keys()) if (!reached.has(path)) roots.set(path, reach(path));
  const home = new Map();
  for (const [root, members] of [...roots].sort((a, b) => a[1].size - b[1].size)) for (const path of members) if (!home.has(path)) home.set(path, root);
  const ids = new Map([...modules.keys()].map((path, i) => [path, i]));
  return { roots, home, ids };
}

/** The name a module's export goes by in its home root: `__intrabot_m<id>$<name>`. */
const mangled = (plan, path, name) => `__intrabot_m${plan.ids.get(path)}$${name}`;

/** Each root's entry module: the root's own exports, then its guests' under their mangled names. */
function barrelPlugin(plan, modules) {
  return {
    name: 'intrabot-barrels',
    setup(b) {
      b.onResolve({ filter: /^intrabot-barrel:/ }, (args) => ({ path: args.path.slice(BARREL.length), namespace: 'intrabot-barrel' }));
      b.onLoad({ filter: /.*/, namespace: 'intrabot-barrel' }, (args) => {
        const root = args.path;
        const from = (path) => JSON.stringify(join(ROOT, path));
        const lines = [`export { ${modules.get(root).exports.join(', ')} } from ${from(root)};`];
        if (!modules.get(root).exports.length) lines[0] = `import ${from(root)};`;
        for (const [path, home] of plan.home) {
          if (home !== root || path === root) continue;
          const names = modules.get(path).exports;
          lines.push(
            names.length
              ? `export { ${names.map((name) => `${name} as ${mangled(plan, path, name)}`).join(', ')} } from ${from(path)};`
              : `import ${from(path)};`,
          );
        }
        return { contents: lines.join('\n'), loader: 'js', resolveDir: ROOT };
      });
    },
  };
}

/** Every source file that is not a root: one line naming its bindings in its home root's output. */
function writeFacades(dir, plan, modules) {
  for (const [path, home] of plan.home) {
    if (path === home) continue;
    const file = join(dir, relative('src', path).replace(/\.ts$/, '.js'));
    let target = relative(dirname(file), join(dir, relative('src', home).replace(/\.ts$/, '.js')));
    if (!target.startsWith('.')) target = `./${target}`;
    const names = modules.get(path).exports;
    const line = names.length
      ? `export { ${names.map((name) => `${mangled(plan, path, name)} as ${name}`).join(', ')} } from ${JSON.stringify(target)};\n`
      : `import ${JSON.stringify(target)};\n`;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, line);
  }
}

/** A temporary build this old was left by a process that died while building. */
const STALE_TMP_MS = 10 * 60_000;

function prune(current) {
  try {
    const entries = readdirSync(BUILDS)
      .filter((name) => name !== current && name !== 'bots')
      .map((name) => ({ name, mtime: statSync(join(BUILDS, name)).mtimeMs }));
    const builds = entries.filter((e) => !e.name.includes('.tmp-')).sort((a, b) => b.mtime - a.mtime);
    const stale = entries.filter((e) => e.name.includes('.tmp-') && Date.now() - e.mtime > STALE_TMP_MS);
    for (const old of [...builds.slice(KEEP - 1), ...stale]) rmSync(join(BUILDS, old.name), { recursive: true, force: true });
  } catch {
    // pruning is housekeeping: never a reason to fail a start
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(BUILDS, { recursive: true });
  const dir = await ensureBuild();
  console.log(`intrabot: built ${relative(ROOT, dir)}`);
}
