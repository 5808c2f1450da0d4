// Builds intrabot's TypeScript sources (src/) into plain ES modules under `.build/<key>/`, once per
// version of the sources, so `intrabot start` runs without a TypeScript loader in the process: the
// loader's thread and its per-module source maps cost about 40 MB and half a second at every start.
//
// Every source file is an entry point and shared code is split into chunks, so each module exists
// once: a bot that imports `src/api/errors` (compiled by src/bots/bot-bundler.ts) gets the very classes
// the runtime throws. Plain JavaScript: it runs before anything could load TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
  await build({
    entryPoints: files,
    outbase: SRC,
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // packages are bundled too: resolving and loading a few hundred small files at every start cost
    // ~300 ms. Kept outside: native modules, what runs in worker threads or child processes by file
    // path (pino's transports), what loads lazily (Redis, PostgreSQL), and the tsx fallback.
    external: EXTERNAL_PACKAGES,
    // bundled CommonJS packages require Node's built-ins
    banner: { js: "import { createRequire as __intrabotCreateRequire } from 'node:module'; const require = __intrabotCreateRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'error',
  });
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
