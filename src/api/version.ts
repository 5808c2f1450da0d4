import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/** intrabot's version, from package.json, so the User-Agent never drifts from the release. */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const INTRABOT_VERSION = readVersion();

/** The User-Agent every request carries: `intrabot/<version>`. */
export const USER_AGENT = `intrabot/${INTRABOT_VERSION}`;
