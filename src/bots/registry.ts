import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IntrabotError } from '../errors';
import { RUNNING_FROM_SOURCE, bundleBot, stopBundler } from './bot-bundler';
import { isBotDefinition, type AnyBotDefinition } from './define-bot';
import type { BotManifest } from './manifest';
import { checkBotAgainstManifest, type BotProblem } from './manifest-check';
import { peekManifest, type ManifestHeading } from './manifest-peek';
import { MANIFEST_FILE, duplicateName, lineOfField, loadBotDirs, loadManifest } from './manifest-loader';

/** A bot the runtime can run: its manifest, its module and where it lives. */
export interface LoadedBotModule {
  name: string;
  dir: string;
  manifest: BotManifest;
  definition: AnyBotDefinition;
  /** Problems that did not stop it (handlers nothing delivers to...). */
  warnings: BotProblem[];
}

/** A bot that could not be loaded, with the reason; the others run. */
export interface BotLoadFailure {
  dir: string;
  name?: string;
  error: Error;
}

/** A bot present but deliberately not loaded (an example bot in connected mode...), with why. */
export interface SkippedBot {
  name: string;
  dir: string;
  reason: string;
}

export interface BotRegistry {
  bots: LoadedBotModule[];
  failures: BotLoadFailure[];
  skipped: SkippedBot[];
}

const MODULE_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];

/** What `loadBots` takes beyond the folder and the environment. */
export interface LoadBotsOptions {
  /** Re-imports the bots' modules under this version (`intrabot dev` reloading changed files). */
  version?: string;
  /**
   * A last check of a loaded bot (the runtime's: its alert inputs and report secrets can work in this
   * mode); a throw refuses the bot with that error, as any other failure to load.
   */
  check?: (bot: LoadedBotModule) => void;
  /**
   * Whether to leave a bot out (the runtime's choice of bots: `INTRABOT_BOTS`, example bots in connected
   * mode): a reason skips it before its module is imported, even when its manifest could not be
   * completed (a missing `${env:...}` the skipped bot alone needs).
   */
  skip?: (bot: ManifestHeading) => string | undefined;
}

/**
 * Loads every bot under `botsDir`: the manifest (validated, env references resolved), then the module
 * (`index.ts`, plain TypeScript: imported as is under tsx or vitest, compiled by `bundleBot` when the
 * runtime runs from its build; exporting `defineBot(...)` by default), then the
 * checks between the two. A bot that fails any step is reported and skipped; the others load.
 *
 * Names are unique among the bots that loaded: a bot that failed never takes its name from a valid
 * one, and of two valid bots with one name the later folder (in name order) is refused.
 *
 * @example
 * const { bots, failures } = await loadBots('bots', process.env);
 */
export async function loadBots(
  botsDir: string,
  env: Readonly<Record<string, string | undefined>>,
  only?: readonly string[],
  options: LoadBotsOptions = {},
): Promise<BotRegistry> {
  const registry: BotRegistry = { bots: [], failures: [], skipped: [] };
  if (!existsSync(botsDir)) return registry;
  try {
    const loaded = await loadEach(registry, botsDir, env, only, options);
    keepUniqueNames(registry, loaded);
  } finally {
    await stopBundler();
  }
  return registry;
}

/**
 * One bot folder, loaded as `loadBots` loads each (manifest, module, the checks between them), for
 * `testBot`: throws the error that would have refused the bot.
 */
export async function loadBot(dir: string, env: Readonly<Record<string, string | undefined>>): Promise<LoadedBotModule> {
  const manifest = await loadManifest(join(dir, MANIFEST_FILE), env);
  try {
    return await loadModule(manifest, dir, undefined);
  } finally {
    await stopBundler();
  }
}

/**
 * Every bot that passes its own checks, in folder order; the others go to `registry.failures`. The
 * modules are imported at once (compiling and reading them overlap: each import waits on the file
 * system several times), then checked one by one in folder order.
 */
async function loadEach(
  registry: BotRegistry,
  botsDir: string,
  env: Readonly<Record<string, string | undefined>>,
  only: readonly string[] | undefined,
  options: LoadBotsOptions,
): Promise<LoadedBotModule[]> {
  // in folder order: a failure already known, or a module on its way
  const pending: Array<BotLoadFailure | { dir: string; name: string; module: Promise<LoadedBotModule | { error: Error }> }> = [];
  for (const found of await loadBotDirs(botsDir, env)) {
    const heading = found.ok ? { name: found.manifest.name, example: found.manifest.example } : await peekFile(found.dir);
    if (found.ok && only && !only.includes(found.manifest.name)) continue;
    const skipReason = heading && options.skip?.(heading);
    if (heading && skipReason) {
      registry.skipped.push({ name: heading.name, dir: found.dir, reason: skipReason });
      continue;
    }
    if (!found.ok) {
      // named when its manifest's name could be read at all, so INTRABOT_BOTS and the job history know it
      pending.push({ dir: found.dir, ...(heading ? { name: heading.name } : {}), error: found.error });
      continue;
    }
    const { manifest, dir } = found;
    // settled here, so a failure is never an unhandled rejection while an earlier bot is awaited
    const module = loadModule(manifest, dir, options.version).catch((error: unknown) => ({ error: error instanceof Error ? error : new Error(String(error)) }));
    pending.push({ dir, name: manifest.name, module });
  }
  const loaded: LoadedBotModule[] = [];
  for (const entry of pending) {
    if (!('module' in entry)) {
      registry.failures.push(entry);
      continue;
    }
    const { dir, name } = entry;
    const bot = await entry.module;
    try {
      if ('error' in bot) throw bot.error;
      options.check?.(bot);
      loaded.push(bot);
    } catch (error) {
      registry.failures.push({ dir, name, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return loaded;
}

/** The name and `example` flag of a manifest that did not load, when its text tells them. */
async function peekFile(dir: string): Promise<ManifestHeading | undefined> {
  const source = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  return source === undefined ? undefined : peekManifest(source);
}

async function loadModule(manifest: BotManifest, dir: string, version: string | undefined): Promise<LoadedBotModule> {
  const definition = await importDefinition(manifest.name, dir, version);
  const problems = checkBotAgainstManifest(manifest, definition);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length) {
    const first = errors[0]!;
    const file = join(dir, MANIFEST_FILE);
    throw new IntrabotError('invalid_manifest', `${file}:${lineOfField(readFileSync(file, 'utf8'), first.field)} ${first.field}: ${first.message}`, {
      details: { field: first.field },
    });
  }
  return { name: manifest.name, dir, manifest, definition, warnings: problems.filter((p) => p.severity === 'warning') };
}

/** The first valid bot of a name runs; a later valid one of the same name is refused, naming the holder. */
function keepUniqueNames(registry: BotRegistry, loaded: readonly LoadedBotModule[]): void {
  const holders = new Map<string, string>();
  for (const bot of loaded) {
    const holder = holders.get(bot.name);
    if (holder === undefined) {
      holders.set(bot.name, bot.dir);
      registry.bots.push(bot);
    } else {
      registry.failures.push({ dir: bot.dir, name: bot.name, error: duplicateName(join(bot.dir, MANIFEST_FILE), bot.name, holder) });
    }
  }
}

async function importDefinition(name: string, dir: string, version: string | undefined): Promise<AnyBotDefinition> {
  const file = MODULE_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new IntrabotError('invalid_manifest', `${dir}: no index.ts next to bot.yaml`);
  try {
    return await importModule(name, file, version);
  } catch (error) {
    throw withModuleLocation(error, file);
  }
}

/**
 * An error from compiling or evaluating a bot's module, named by its file and, when the stack shows
 * it (from source, or with source maps), the line: `bots/x/index.ts:12 defineBot: on.post.deleted: ...`.
 * A compile error names its own file and line already, relative to the bot's folder: made absolute.
 */
function withModuleLocation(error: unknown, file: string): Error {
  // a loader's error may come from another realm (vitest's module runner): not instanceof Error, still error-shaped
  const original = error instanceof Error ? error : new Error(errorMessage(error), { cause: error });
  if (original.message.startsWith(file)) return original;
  const dir = dirname(file);
  // esbuild: "Build failed with 1 error:\nindex.ts:3:5: ERROR: Unexpected ..."
  const compiled = /(?:^|\n)([\w./-]+\.[cm]?[jt]sx?):(\d+):\d+: (?:ERROR: )?([^\n]*)/.exec(original.message);
  if (compiled) return new Error(`${resolve(dir, compiled[1]!)}:${compiled[2]} ${compiled[3]}`, { cause: original });
  const line = lineIn(original.stack, file);
  return new Error(`${file}${line ? `:${line}` : ''} ${original.message}`, { cause: original });
}

function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

function lineIn(stack: string | undefined, file: string): string | undefined {
  for (const frame of stack?.split('\n') ?? []) {
    const at = frame.indexOf(file);
    if (at < 0) continue;
    const match = /^(?:\?[^:]*)?:(\d+):\d+/.exec(frame.slice(at + file.length));
    if (match) return match[1];
  }
  return undefined;
}

async function importModule(name: string, file: string, version: string | undefined): Promise<AnyBotDefinition> {
  // from a build, the bot is compiled first (a new file per content, so a changed bot is imported
  // afresh). From source (tsx, vitest) it is imported as it is, except on `intrabot dev`'s reloads
  // (a `version`): ESM caches every module by URL, so only a compiled bot brings its changed helper
  // files along; its framework imports still point at the sources the runtime runs.
  const compiled = !RUNNING_FROM_SOURCE || version !== undefined;
  const url = compiled ? pathToFileURL(await bundleBot(name, file)).href : pathToFileURL(file).href;
  // a compiled bot carries its source map: with maps on from here, its stack traces name the bot's own
  // files and lines (the framework's modules, loaded before, stay unmapped: their maps would cost start-up)
  if (compiled) process.setSourceMapsEnabled(true);
  const mod = (await import(url)) as { default?: unknown };
  if (!isBotDefinition(mod.default)) {
    throw new IntrabotError('invalid_manifest', `${file}: the default export must be defineBot({...})`, { details: { field: 'default' } });
  }
  return mod.default;
}
