import { EnvFileError, readEnvFile } from '../../bots/env-refs';
import type { SettingProblem } from './config-problems';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The runtime's own settings that hold secrets, each also accepted as `<NAME>_FILE` (the path of a file
 * holding the value), as Docker and Kubernetes mount secrets: the value then never sits in the
 * environment, where `ps e`, crash dumps and `kubectl describe` show it. `INTRABOT_REDIS_URL` and
 * `INTRABOT_DATABASE_URL` are here because their URLs carry the password. Secrets a file or a manifest references (`${env:PROXY_KEY}`,
 * an alert input's token) take `PROXY_KEY_FILE` through the reference itself (src/bots/env-refs.ts).
 */
export const FILE_SETTINGS = [
  'INTRABOT_TOKEN',
  'INTRABOT_SECRET_KEY',
  'INTRABOT_ADMIN_TOKEN',
  'INTRABOT_WEBHOOK_SECRETS',
  'INTRABOT_REDIS_URL',
  'INTRABOT_DATABASE_URL',
] as const;

export interface SettingFiles {
  /** The environment with each `<NAME>_FILE` read into `<NAME>` (and the `_FILE` variable gone). */
  env: Record<string, string | undefined>;
  /** Files that could not be used, by variable; their settings stay unset. */
  problems: SettingProblem[];
}

/**
 * Reads the file of every secret setting given as `<NAME>_FILE`. Problems (both forms set, a file that
 * cannot be read or is empty) name the variable and the path, never a file's content.
 *
 * @example
 * const { env } = readSettingFiles({ INTRABOT_TOKEN_FILE: '/run/secrets/intrabot/token' });
 * env.INTRABOT_TOKEN // the file's content, without its trailing newline
 */
export function readSettingFiles(env: Env, read?: (path: string) => string): SettingFiles {
  const out: Record<string, string | undefined> = { ...env };
  const problems: SettingProblem[] = [];
  for (const name of FILE_SETTINGS) {
    try {
      const value = readEnvFile(name, env, read);
      if (value === undefined) continue;
      out[name] = value;
      delete out[`${name}_FILE`];
    } catch (error) {
      if (!(error instanceof EnvFileError)) throw error;
      problems.push({ setting: error.variable, message: error.message });
    }
  }
  return { env: out, problems };
}
