import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IntrabotError } from '../errors';
import { RUNNING_FROM_SOURCE, bundleBot, stopBundler } from './bot-bundler';
import { isBotDefinition, type AnyBotDefinition } from './define-bot';
import type { BotManifest } from './manifest';
import { checkBotAgainstManifest, type BotProblem } from './manifest-check';
import { loadBotDirs } from './manifest-loader';

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

export interface BotRegistry {
  bots: LoadedBotModule[];
  failures: BotLoadFailure[];
}

const MODULE_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];

/**
 * Loads every bot under `botsDir`: the manifest (validated, env references resolved), then the module
 * (`index.ts`, plain TypeScript: imported as is under tsx or vitest, compiled by `bundleBot` when the
 * runtime runs from its build; exporting `defineBot(...)` by default), then the
 * checks between the two. A bot that fails any step is reported and skipped; the others load.
 *
 * @example
 * const { bots, failures } = await loadBots('bots', process.env);
 */
export async function loadBots(
  botsDir: string,
  env: Readonly<Record<string, string | undefined>>,
  only?: readonly string[],
  options: { version?: string } = {},
): Promise<BotRegistry> {
  const registry: BotRegistry = { bots: [], failures: [] };
  if (!existsSync(botsDir)) return registry;
  try {
    await loadEach(registry, botsDir, env, only, options.version);
  } finally {
    await stopBundler();
  }
  return registry;
}

async function loadEach(registry: BotRegistry, botsDir: string, env: Readonly<Record<string, string | undefined>>, only: readonly string[] | undefined, version: string | undefined): Promise<void> {
  for (const loaded of await loadBotDirs(botsDir, env)) {
    if (!loaded.ok) {
      registry.failures.push({ dir: loaded.dir, error: loaded.error });
      continue;
    }
    const { manifest, dir } = loaded;
    if (only && !only.includes(manifest.name)) continue;
    try {
      const definition = await importDefinition(manifest.name, dir, version);
      const problems = checkBotAgainstManifest(manifest, definition);
      const errors = problems.filter((p) => p.severity === 'error');
      if (errors.length) {
        const first = errors[0]!;
        throw new IntrabotError('invalid_manifest', `${join(dir, 'bot.yaml')} ${first.field}: ${first.message}`, { details: { field: first.field } });
      }
      registry.bots.push({ name: manifest.name, dir, manifest, definition, warnings: problems.filter((p) => p.severity === 'warning') });
    } catch (error) {
      registry.failures.push({ dir, name: manifest.name, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
}

async function importDefinition(name: string, dir: string, version: string | undefined): Promise<AnyBotDefinition> {
  const file = MODULE_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new IntrabotError('invalid_manifest', `${dir}: no index.ts next to bot.yaml`);
  // from a build, the bot is compiled first (a new file per content, so a changed bot is imported afresh);
  // from source, ESM caches a module by URL: a new `version` (`intrabot dev`) imports the file afresh
  const url = RUNNING_FROM_SOURCE
    ? `${pathToFileURL(file).href}${version ? `?v=${encodeURIComponent(version)}` : ''}`
    : pathToFileURL(await bundleBot(name, file)).href;
  const mod = (await import(url)) as { default?: unknown };
  if (!isBotDefinition(mod.default)) {
    throw new IntrabotError('invalid_manifest', `${file}: the default export must be defineBot({...})`, { details: { field: 'default' } });
  }
  return mod.default;
}
