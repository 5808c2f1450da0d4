import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { InvalidInputError } from '../../errors';

const FIELD = '--intrabot';

/**
 * What a new project's package.json depends on for intrabot: a version or range from the registry
 * (the running version by default, `^x.y.z`), or a tarball or folder on this machine, written as a
 * `file:` path relative to the project (npm's own form, so the two can move together).
 *
 * Refused (`InvalidInputError` naming `--intrabot`): a path that does not exist, a file that is not a
 * tarball, a folder that is not a built intrabot.
 *
 * @example intrabotSpec('../intrabot-0.1.0.tgz', { cwd: '/work', projectDir: '/work/my-bots', version: '0.1.0' }) // 'file:../intrabot-0.1.0.tgz'
 */
export function intrabotSpec(given: string | undefined, where: { cwd: string; projectDir: string; version: string }): string {
  if (given === undefined) return `^${where.version}`;
  if (given.trim() === '') throw new InvalidInputError(FIELD, '--intrabot: give a version, a tarball (.tgz) or a folder');
  const path = resolve(where.cwd, given.replace(/^file:/, ''));
  const looksLikePath = given.startsWith('file:') || /^(\.{1,2}|~)?[/\\]/.test(given) || /\.(tgz|tar\.gz)$/.test(given) || given === '.' || given === '..';
  if (!existsSync(path)) {
    if (looksLikePath) throw new InvalidInputError(FIELD, `--intrabot: ${path} does not exist`);
    // a version, a range, a dist-tag or any other spec npm understands
    return given;
  }
  if (statSync(path).isDirectory()) checkFolder(path);
  else if (!/\.(tgz|tar\.gz)$/.test(path)) throw new InvalidInputError(FIELD, `--intrabot: ${path} is neither a tarball (.tgz) nor a folder`);
  const rel = relative(where.projectDir, path).split(sep).join('/');
  return `file:${rel.startsWith('.') ? rel : `./${rel}`}`;
}

/** A folder is an intrabot checkout or unpacked package whose dist/ is built (npm installs a folder as a link, building nothing). */
function checkFolder(dir: string): void {
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
  } catch {
    throw new InvalidInputError(FIELD, `--intrabot: ${dir} has no readable package.json`);
  }
  if (name !== 'intrabot') throw new InvalidInputError(FIELD, `--intrabot: ${dir} is not intrabot (its package.json names ${JSON.stringify(name)})`);
  if (!existsSync(join(dir, 'dist', 'index.js'))) throw new InvalidInputError(FIELD, `--intrabot: ${dir} is not built: run "npm run build" there first`);
}
