import { readFileSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { didYouMean } from '../did-you-mean';
import { issuePath, knownKeysAt } from '../validation';
import { MalformedEnvRefError, MissingEnvRefError, maskEnvRefs, unmaskEnvRefs, type Env, type EnvRef } from './env-refs';
import { BotManifestSchema, type BotManifest } from './manifest';
import { ManifestError } from './manifest-error';
import { isPlainObject } from './manifest-parts';

export const MANIFEST_FILE = 'bot.yaml';

export type LoadedBot = { ok: true; manifest: BotManifest; dir: string } | { ok: false; dir: string; error: ManifestError };

interface SourceMap {
  file: string;
  doc: Document;
  lines: LineCounter;
}

/**
 * Parses and validates a manifest's text. `file` is only used to name the place of an error.
 * Throws `ManifestError` naming the file, the line and the field.
 */
export function parseManifest(source: string, file: string, env: Env): BotManifest {
  const masked = maskEnvRefs(source);
  const lines = new LineCounter();
  const doc = parseDocument(masked.text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0].line ?? 1;
    const first = (yamlError.message.split('\n')[0] ?? 'invalid YAML').replace(/ at line \d+, column \d+:?$/, '');
    throw new ManifestError({ file, line, field: '(yaml)' }, first);
  }
  const map: SourceMap = { file, doc, lines };
  const raw = resolveStrings(doc.toJS(), [], masked.refs, env, map);
  const result = BotManifestSchema.safeParse(raw ?? {});
  if (!result.success) throw errorFromIssue(result.error, map);
  return result.data;
}

/**
 * Reads and validates one `bot.yaml`. The file system is read synchronously here and in `loadBotDirs`:
 * a few small files, and each asynchronous read is four trips through libuv's thread pool, each a wait
 * for a thread on a busy machine, for reading that takes microseconds.
 */
export async function loadManifest(file: string, env: Env): Promise<BotManifest> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ManifestError({ file, line: 1, field: '(file)' }, 'cannot be read', { cause });
  }
  return parseManifest(source, file, env);
}

/**
 * Loads every bot folder under `botsDir` (each one holding a `bot.yaml`). One invalid bot is
 * reported in its own entry and never stops the others. Names are not compared here: whether a name is
 * taken depends on which bots load in the end (`loadBots`), so that a bot that fails later (its module)
 * never takes its name from a valid one.
 */
export async function loadBotDirs(botsDir: string, env: Env): Promise<LoadedBot[]> {
  const dirs = botFolders(botsDir);
  const loaded: LoadedBot[] = [];
  for (const dir of dirs) {
    const file = join(dir, MANIFEST_FILE);
    try {
      loaded.push({ ok: true, manifest: await loadManifest(file, env), dir });
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      loaded.push({ ok: false, dir, error });
    }
  }
  return loaded;
}

function botFolders(botsDir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(botsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_'))
    .map((entry) => join(botsDir, entry.name))
    .sort()
    .filter((dir) => isFile(join(dir, MANIFEST_FILE)));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A valid bot refused because an earlier valid bot (in `holder`) has its name. */
export function duplicateName(file: string, name: string, holder: string): ManifestError {
  return new ManifestError({ file, line: 1, field: 'name' }, `bot name "${name}" is already used by ${holder}`);
}

/** Resolves env references in every string value, naming the field of a missing one. */
function resolveStrings(value: unknown, path: (string | number)[], refs: readonly EnvRef[], env: Env, map: SourceMap): unknown {
  if (typeof value === 'string') {
    try {
      return unmaskEnvRefs(value, refs, env);
    } catch (error) {
      const field = issuePath(path) || '(root)';
      if (error instanceof MalformedEnvRefError) throw new ManifestError({ file: map.file, line: lineOf(map, path), field }, error.message);
      if (!(error instanceof MissingEnvRefError)) throw error;
      throw new ManifestError({ file: map.file, line: error.ref.line, field }, error.message);
    }
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveStrings(item, [...path, i], refs, env, map));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveStrings(item, [...path, key], refs, env, map)]));
  }
  return value;
}

function errorFromIssue(error: z.ZodError, map: SourceMap): ManifestError {
  const issue = error.issues[0];
  if (!issue) return new ManifestError({ file: map.file, line: 1, field: '(root)' }, 'is invalid');
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  // an unknown key is best pointed at by the key itself
  const extra = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const fullPath = extra === undefined ? path : [...path, extra];
  const field = issuePath(fullPath) || '(root)';
  const problem = extra === undefined ? issue.message : `unknown field "${extra}"${didYouMean(extra, knownKeysAt(BotManifestSchema, path) ?? [])}`;
  return new ManifestError({ file: map.file, line: lineOf(map, fullPath), field }, problem, { cause: error });
}

/**
 * The line of `field` (a dotted path such as `config.behind_below` or `schedules.0.job`) in a
 * manifest's text, for errors found after loading (the bot's own config schema, its jobs): the line
 * of the deepest part of the path the file holds.
 */
export function lineOfField(source: string, field: string): number {
  const lines = new LineCounter();
  const doc = parseDocument(maskEnvRefs(source).text, { lineCounter: lines });
  const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return lineOf({ file: '', doc, lines }, path);
}

/** The line of the deepest node along `path` that exists in the document (a missing key: its parent). */
function lineOf(map: SourceMap, path: (string | number)[]): number {
  for (let depth = path.length; depth > 0; depth--) {
    const node = map.doc.getIn(path.slice(0, depth), true);
    const offset = rangeStart(node);
    if (offset !== undefined) return map.lines.linePos(offset).line;
  }
  return rangeStart(map.doc.contents) !== undefined ? map.lines.linePos(rangeStart(map.doc.contents) ?? 0).line : 1;
}

function rangeStart(node: unknown): number | undefined {
  if (node && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: [number, number, number] | null }).range;
    if (range) return range[0];
  }
  return undefined;
}
