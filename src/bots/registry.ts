import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IntrabotError } from '../errors';
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
 * (`index.ts`, plain TypeScript loaded through tsx, exporting `defineBot(...)` by default), then the
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
  for (const loaded of await loadBotDirs(botsDir, env)) {
    if (!loaded.ok) {
      registry.failures.push({ dir: loaded.dir, error: loaded.error });
      continue;
    }
    const { manifest, dir } = loaded;
    if (only && !only.includes(manifest.name)) continue;
    try {
      const definition = await importDefinition(dir, options.version);
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
  return registry;
}

async function importDefinition(dir: string, version: string | undefined): Promise<AnyBotDefinition> {
  const file = MODULE_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new IntrabotError('invalid_manifest', `${dir}: no index.ts next to bot.yaml`);
  // ESM caches a module by URL: a new `version` (`intrabot dev` after a change) imports the file afresh
  const url = `${pathToFileURL(file).href}${version ? `?v=${encodeURIComponent(version)}` : ''}`;
  const mod = (await import(url)) as { default?: unknown };
  if (!isBotDefinition(mod.default)) {
    throw new IntrabotError('invalid_manifest', `${file}: the default export must be defineBot({...})`, { details: { field: 'default' } });
  }
  return mod.default;
}
