import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { PACKAGE_ROOT } from '../package-root';

/**
 * Whether intrabot runs from its TypeScript sources (tsx, vitest): a bot's `index.ts` is then imported
 * as it is. From a build (`bin/build.mjs`, what `intrabot start` runs) there is no TypeScript loader in
 * the process, and each bot is compiled by `bundleBot` first.
 */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');

const SRC_DIR = join(PACKAGE_ROOT, 'src');
const KEEP_PER_BOT = 3;

/**
 * The first of `candidates` that exists (or can be made) and can be written to; undefined when none
 * can. `access` reports a read-only file system even to root. A `private` candidate (in a shared
 * temporary folder, where another user could make it first and plant code in it) is made with mode
 * 0700 and taken only when it is a real directory of this user, closed to others.
 */
export function firstWritableDir(candidates: readonly (string | { dir: string; private: true })[]): string | undefined {
  for (const candidate of candidates) {
    const dir = typeof candidate === 'string' ? candidate : candidate.dir;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      accessSync(dir, constants.W_OK);
      if (typeof candidate !== 'string' && !ownPrivateDir(dir)) continue;
      return dir;
    } catch {
      // not here: try the next
    }
  }
  return undefined;
}

function ownPrivateDir(dir: string): boolean {
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  return stat.isDirectory() && !stat.isSymbolicLink() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o077) === 0;
}

let bundlesDir: string | undefined;
/** Whether esbuild's service process was started (and so must be stopped). */
let compilerStarted = false;

/**
 * Where compiled bots go, by name and content hash (a few are kept per bot, for `intrabot dev`'s
 * reloads): beside the build, or, when the installation is read-only (a container with a read-only
 * root file system), a directory of the system's temporary folder owned by this installation.
 */
function bundles(): string {
  bundlesDir ??= firstWritableDir([
    join(PACKAGE_ROOT, '.build', 'bots'),
    {
      dir: join(tmpdir(), `intrabot-bots-${createHash('sha256').update(PACKAGE_ROOT).digest('hex').slice(0, 12)}-${process.getuid?.() ?? 'user'}`),
      private: true,
    },
  ]);
  if (!bundlesDir) throw new Error(`intrabot: nowhere to write compiled bots: neither ${join(PACKAGE_ROOT, '.build', 'bots')} nor ${tmpdir()} is writable`);
  return bundlesDir;
}

/**
 * The build this module runs from: the directory `bin/build.mjs` marked complete (this module may sit
 * in one of its chunks), or the package's `dist/` (scripts/build-package.mjs: an installed intrabot).
 */
function buildDir(): string {
  const dist = join(PACKAGE_ROOT, 'dist');
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, '.complete')) && dir !== dist) {
    const parent = dirname(dir);
    if (parent === dir || dir === PACKAGE_ROOT) throw new Error(`intrabot: ${fileURLToPath(import.meta.url)} is not part of a build`);
    dir = parent;
  }
  return dir;
}

/** `src/x/y` as imported (with or without extension, or a folder with index.ts) -> the source file. */
function sourceFileOf(path: string): string {
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  const jsTwin = path.replace(/\.js$/, '.ts');
  if (existsSync(jsTwin)) return jsTwin;
  throw new Error(`no intrabot source file for ${path}`);
}

/** Where a bot's imports of the framework go: the running build's modules, or (from source) the sources. */
interface Framework {
  /** Tells compiled bots apart by what they were compiled against. */
  key: string;
  /** The module to import for a framework source file, given relative to `src/` (`bots/define-bot.ts`). */
  fileFor(sourceRel: string): string;
}

function runningFramework(): Framework {
  if (RUNNING_FROM_SOURCE) return { key: 'source', fileFor: (rel) => join(SRC_DIR, rel) };
  const build = buildDir();
  return { key: build, fileFor: (rel) => join(build, rel.replace(/\.ts$/, '.js')) };
}

/** The package's entry points (package.json `exports`), by the source file each is. */
const ENTRY_POINTS: Record<string, string> = { intrabot: 'index.ts', 'intrabot/testing': 'testing/index.ts', 'intrabot/helpers': 'helpers/index.ts' };
const ENTRY_POINT = /^intrabot(\/(testing|helpers))?$/;

/**
 * Imports of the framework (`intrabot`, `intrabot/helpers`, `intrabot/testing`, or a path into intrabot's `src/`) point at the running
 * framework's module for the same file (the build's, or the source itself under tsx), so a bot shares
 * the runtime's classes and state (an `instanceof ApiForbiddenError` holds). Packages are resolved
 * where the bot is and imported by absolute path, so a compiled bot can live anywhere. Everything
 * else (the bot's own files) is bundled.
 */
function frameworkPlugin(framework: Framework): Plugin {
  return {
    name: 'intrabot-framework',
    setup(b) {
      b.onResolve({ filter: ENTRY_POINT }, (args) => ({ path: framework.fileFor(ENTRY_POINTS[args.path]!), external: true }));
      b.onResolve({ filter: /^(\.\.?(\/|$)|\/)/ }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (target !== SRC_DIR && !target.startsWith(`${SRC_DIR}${sep}`)) return undefined;
        return { path: framework.fileFor(relative(SRC_DIR, sourceFileOf(target))), external: true };
      });
      // a bot's own file keeps knowing where it is (templates and data beside it), though bundled elsewhere
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
        return { contents, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (isBuiltin(args.path) || (args.pluginData as { plain?: boolean } | undefined)?.plain) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { plain: true } });
        return found.errors.length ? { errors: found.errors } : { path: found.path, external: true };
      });
    },
  };
}

/** What a compiled bot was made from: reused while every input file is unchanged. */
interface BundleIndex {
  entry: string;
  build: string;
  bundle: string;
  /** Absolute path -> [size, mtimeMs] of every file esbuild read. */
  inputs: Record<string, [number, number]>;
}

const stamp = (file: string): [number, number] => {
  const { size, mtimeMs } = statSync(file);
  return [size, mtimeMs];
};

function reusable(index: BundleIndex, entry: string, build: string): boolean {
  if (index.entry !== entry || index.build !== build || !existsSync(index.bundle)) return false;
  return Object.entries(index.inputs).every(([file, [size, mtime]]) => {
    if (!existsSync(file)) return false;
    const [s, m] = stamp(file);
    return s === size && m === mtime;
  });
}

function readIndex(file: string): BundleIndex | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BundleIndex;
  } catch {
    return undefined;
  }
}

/** Writes a file whole or not at all, so concurrent starts never read half of one. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Compiles a bot's entry file (TypeScript, with its own imports) into one ES module and returns its
 * path. A bot whose files did not change since its last compile (same build of intrabot) is not
 * compiled again. Written atomically, one file per content, so a running process keeps its own.
 */
export async function bundleBot(name: string, entryFile: string): Promise<string> {
  const entry = resolve(entryFile);
  const framework = runningFramework();
  const build = framework.key;
  const dir = bundles();
  const indexFile = join(dir, `${name}.json`);
  const previous = readIndex(indexFile);
  if (previous && reusable(previous, entry, build)) return previous.bundle;

  const esbuild = await import('esbuild');
  compilerStarted = true;
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
    absWorkingDir: dirname(entry),
    // the bundle is written there: its source map then names the bot's files by their true paths
    outdir: dir,
    plugins: [frameworkPlugin(framework)],
  });
  const code = result.outputFiles[0]!.text;
  const file = join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  const inputs = Object.fromEntries(
    Object.keys(result.metafile.inputs).map((input) => {
      const path = resolve(dirname(entry), input);
      return [path, stamp(path)];
    }),
  );
  writeAtomically(indexFile, JSON.stringify({ entry, build, bundle: file, inputs } satisfies BundleIndex));
  prune(dir, name, basename(file));
  return file;
}

/** The compiler is a child process: not kept around once the bots are loaded. */
export async function stopBundler(): Promise<void> {
  if (!compilerStarted) return;
  compilerStarted = false;
  const esbuild = await import('esbuild');
  await esbuild.stop();
}

function prune(dir: string, name: string, current: string): void {
  try {
    const mine = readdirSync(dir)
      .filter((f) => f !== current && f.startsWith(`${name}-`) && /^[0-9a-f]{16}\.mjs$/.test(f.slice(name.length + 1)))
      .map((f) => ({ f, mtime: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of mine.slice(KEEP_PER_BOT - 1)) rmSync(join(dir, old.f), { force: true });
  } catch {
    // housekeeping only
  }
}
