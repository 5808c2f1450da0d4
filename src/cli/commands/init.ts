import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../package-root';
import type { CliCommand } from '../command';
import { intrabotSpec, type IntrabotDependency } from '../init/intrabot-spec';
import { projectFiles, type ProjectOptions } from '../init/project-files';
import { messageOf, paint, processIo, type CliIo } from '../output';

const USAGE = 'init <dir> [--intrabot <version|tarball|folder>]';

interface OwnPackage {
  version: string;
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
}

/** The running intrabot's package.json: its version, and the tool versions it is tested with. */
function ownPackage(): OwnPackage {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as OwnPackage;
}

/** An npm package name from a folder name: lower case, letters, digits, `-`, `.` and `_`. */
export function projectName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'bots';
}

/** A folder that exists and holds anything is not scaffolded over. */
function occupied(dir: string): boolean {
  return existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0);
}

/** Writes the project's files and copies the vendored tarball, never over a file; answers their paths. */
function writeProject(dir: string, files: Record<string, string>, vendor: IntrabotDependency['vendor']): string[] {
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  }
  if (!vendor) return Object.keys(files);
  // in the project, so that a clone elsewhere (its CI, its Docker build) has what package.json names
  mkdirSync(dirname(join(dir, vendor.path)), { recursive: true });
  copyFileSync(vendor.from, join(dir, vendor.path), constants.COPYFILE_EXCL);
  return [...Object.keys(files), vendor.path];
}

/** A folder dependency is a link to this machine's folder: a clone elsewhere has no such folder. */
function linkNote(spec: string): string {
  return `\nNote: intrabot is ${spec}, a link to a folder on this machine: a clone of the project elsewhere (CI, a Docker build) cannot install it. Give --intrabot a tarball (npm pack) for a project that moves.`;
}

/** `intrabot init <dir>`: a new bots repository that depends on intrabot, with a first bot and its test. */
export async function runInit(args: string[], io: CliIo): Promise<number> {
  const c = paint(io);
  let values: { intrabot?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: { intrabot: { type: 'string' } } }));
  } catch (error) {
    io.stderr(`intrabot init: ${messageOf(error)}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const [target, ...extra] = positionals;
  if (!target || extra.length > 0) {
    io.stderr(`intrabot init: give exactly one folder for the new project\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const dir = resolve(io.cwd, target);
  if (occupied(dir)) {
    io.stderr(`intrabot init: ${dir} already exists and is not empty; choose a new folder\n`);
    return 2;
  }
  const own = ownPackage();
  let options: ProjectOptions;
  let intrabot: IntrabotDependency;
  try {
    intrabot = intrabotSpec(values.intrabot, { cwd: io.cwd, projectDir: dir, version: own.version });
    options = {
      name: projectName(dir),
      intrabot: intrabot.spec,
      vendored: intrabot.vendor?.path,
      devDependencies: {
        typescript: own.devDependencies?.typescript ?? '^5.9.3',
        vitest: own.devDependencies?.vitest ?? '^3.2.7',
        '@types/node': own.devDependencies?.['@types/node'] ?? '^20.19.0',
      },
      node: own.engines?.node ?? '>=20.18.1',
    };
  } catch (error) {
    io.stderr(`intrabot init: ${messageOf(error)}\n`);
    return 2;
  }

  const written = writeProject(dir, projectFiles(options), intrabot.vendor);
  const shown = relative(io.cwd, dir);
  io.stdout(
    [
      `${c.green('created')} ${shown || '.'}/ ${c.dim(`(intrabot ${options.intrabot})`)}`,
      ...written.map((f) => `  ${f}`),
      ...(intrabot.spec.startsWith('file:') && !intrabot.vendor ? [linkNote(intrabot.spec)] : []),
      '',
      'Next:',
      ...(shown ? [`  cd ${shown.includes(' ') ? JSON.stringify(shown) : shown}`] : []),
      '  npm install',
      `  npm test   ${c.dim("# the hello bot's test, against the sandbox")}`,
      `  npm start  ${c.dim('# then say /hello on a wall: README.md shows how')}`,
      '',
    ].join('\n'),
  );
  return 0;
}

export const command: CliCommand = {
  name: 'init',
  usage: USAGE,
  summary: 'Scaffold a bots repository (package.json, tsconfig, bots/hello with its test, Dockerfile, CI) in <dir>',
  run: (args) => runInit(args, processIo()),
};
