import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { InvalidInputError } from '../../errors';

const FIELD = '--intrabot';
const TARBALL = /\.(tgz|tar\.gz)$/;

/** Where a new project keeps the intrabot tarball it depends on, relative to the project. */
export const VENDOR_DIR = 'vendor';

/** How a new project depends on intrabot. */
export interface IntrabotDependency {
  /** What its package.json says: `^0.1.0`, `file:vendor/intrabot-0.1.0.tgz`, `file:../intrabot`. */
  spec: string;
  /** A tarball to copy into the project: from this machine's `from` to `path` inside the project. */
  vendor?: { from: string; path: string };
}

/**
 * What a new project's package.json depends on for intrabot: a version or range from the registry
 * (the running version by default, `^x.y.z`); a tarball, copied into the project's `vendor/` and
 * depended on there (`file:vendor/...`), so that a clone of the project on another machine (its CI,
 * its Docker build) installs it too; or a built folder on this machine, as a `file:` path relative to
 * the project (npm links it: for developing intrabot itself, not for a project that moves).
 *
 * Refused (`InvalidInputError` naming `--intrabot`): a path that does not exist, a file that is not a
 * tarball, a folder that is not a built intrabot.
 *
 * @example intrabotSpec('./intrabot-0.1.0.tgz', { cwd: '/work', projectDir: '/work/my-bots', version: '0.1.0' })
 * // { spec: 'file:vendor/intrabot-0.1.0.tgz', vendor: { from: '/work/intrabot-0.1.0.tgz', path: 'vendor/intrabot-0.1.0.tgz' } }
 */
export function intrabotSpec(given: string | undefined, where: { cwd: string; projectDir: string; version: string }): IntrabotDependency {
  if (given === undefined) return { spec: `^${where.version}` };
  if (given.trim() === '') throw new InvalidInputError(FIELD, '--intrabot: give a version, a tarball (.tgz) or a folder');
  const path = resolve(where.cwd, given.replace(/^file:/, ''));
  const looksLikePath = given.startsWith('file:') || /^(\.{1,2}|~)?[/\\]/.test(given) || TARBALL.test(given) || given === '.' || given === '..';
  if (!existsSync(path)) {
    if (looksLikePath) throw new InvalidInputError(FIELD, `--intrabot: ${path} does not exist`);
    // a version, a range, a dist-tag or any other spec npm understands
    return { spec: given };
  }
  if (!statSync(path).isDirectory()) {
    if (!TARBALL.test(path)) throw new InvalidInputError(FIELD, `--intrabot: ${path} is neither a tarball (.tgz) nor a folder`);
    // a name npm takes as it is in a file: spec
    const vendored = `${VENDOR_DIR}/${basename(path).replace(/[^\w.-]+/g, '-')}`;
    return { spec: `file:${vendored}`, vendor: { from: path, path: vendored } };
  }
  checkFolder(path);
  const rel = relative(where.projectDir, path).split(sep).join('/');
  return { spec: `file:${rel.startsWith('.') ? rel : `./${rel}`}` };
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
