import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * In sandbox mode only, `sandbox.env` at the repository root gives sandbox values (such as the
 * example alert token) to `${env:...}` references. The real environment wins over the file.
 * Lines are `NAME=value`; `#` starts a comment line.
 */
export function withSandboxEnv(env: Readonly<Record<string, string | undefined>>, dir: string): Record<string, string | undefined> {
  const file = join(dir, 'sandbox.env');
  if (!existsSync(file)) return { ...env };
  const fromFile: Record<string, string> = {};
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    fromFile[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') merged[key] = value;
  return merged;
}
