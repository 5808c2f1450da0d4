import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/**
 * Where the example bots `intrabot new <name> --from <template>` copies are: in the installed package,
 * `dist/examples/` (the build copies the examples that stand alone there); in intrabot's own
 * repository, `bots/`.
 */
export function botTemplatesDir(root: string = PACKAGE_ROOT): string {
  const packaged = join(root, 'dist', 'examples');
  return existsSync(packaged) ? packaged : join(root, 'bots');
}

/** The templates there: the example bots (`example: true` in their bot.yaml), sorted. */
export function botTemplateNames(dir: string = botTemplatesDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => isExample(join(dir, name, 'bot.yaml')))
    .sort();
}

function isExample(manifest: string): boolean {
  return existsSync(manifest) && /^example:\s*true\s*$/m.test(readFileSync(manifest, 'utf8'));
}

/** Every file under `dir`, relative to it, in a stable order. */
export function filesOf(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found;
}

/**
 * A template's file as the new bot gets it: its manifest named `name` and no longer an example (the
 * `example: true` line and the comment that explains it go), and in its tests the template's name as
 * a string (`startPair({ bots: ['birthday'] })`, `pair.runJob('birthday', ...)`) the new one's.
 *
 * @example renamedFile('bot.yaml', 'name: birthday\nexample: true\n', 'birthday', 'cheers') // => 'name: cheers\n'
 */
export function renamedFile(path: string, text: string, template: string, name: string): string {
  if (path === 'bot.yaml') {
    return text
      .replace(new RegExp(`^name:\\s*${template}\\s*$`, 'm'), `name: ${name}`)
      .replace(/^# an example:.*\n(?=example:)/m, '')
      .replace(/^example:\s*true\s*\n/m, '');
  }
  if (path.endsWith('.test.ts')) return text.replaceAll(`'${template}'`, `'${name}'`).replaceAll(`"${template}"`, `"${name}"`);
  return text;
}
