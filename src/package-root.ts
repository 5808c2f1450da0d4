import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * intrabot's package directory (where its package.json is), found by walking up from this module:
 * the same answer from `src/` (tsx, vitest) and from a compiled build under `.build/<key>/`.
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'intrabot') return dir;
      } catch {
        // an unreadable package.json on the way up is not ours
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('intrabot: cannot find its own package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();
