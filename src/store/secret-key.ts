import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SECRET_KEY_ENV, SecretKeyMissingError } from './store-errors';

export interface ResolveSecretKeyInput {
  /** Usually `process.env`; only `INTRABOT_SECRET_KEY` is read. */
  env: Record<string, string | undefined>;
  mode: 'sandbox' | 'connected';
  /** `INTRABOT_DATA_DIR`; the sandbox key file lives here. */
  dataDir: string;
}

export const SECRET_KEY_FILE = 'secret.key';

/**
 * Where the key that encrypts secrets at rest comes from:
 * - `INTRABOT_SECRET_KEY` when set (either mode);
 * - sandbox mode: `<dataDir>/secret.key`, created (32 random bytes, base64, mode 0600) when missing, so
 *   `npm start` needs no configuration and a restart still reads its secrets;
 * - connected mode: no key is a `SecretKeyMissingError` (a `ConfigError` naming `INTRABOT_SECRET_KEY`):
 *   real tenants' secrets are never encrypted with a key lying next to them.
 *
 * @example
 * const secretKey = await resolveSecretKey({ env: process.env, mode: 'connected', dataDir: '.intrabot' });
 */
export async function resolveSecretKey(input: ResolveSecretKeyInput): Promise<string> {
  const fromEnv = input.env[SECRET_KEY_ENV]?.trim();
  if (fromEnv) return fromEnv;
  if (input.mode === 'connected') throw new SecretKeyMissingError();
  return readOrCreateKeyFile(join(input.dataDir, SECRET_KEY_FILE));
}

async function readOrCreateKeyFile(path: string): Promise<string> {
  const existing = await readKeyFile(path);
  if (existing) return existing;
  await mkdir(join(path, '..'), { recursive: true });
  try {
    // 'wx': never overwrite a key another process created meanwhile (its secrets would become unreadable)
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(`${randomBytes(32).toString('base64')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // another process may have created the file a moment ago and still be writing it
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const created = await readKeyFile(path);
    if (created) return created;
    await delay(25);
  }
  throw new SecretKeyMissingError(`${SECRET_KEY_ENV} is unset and the key file ${path} is empty`);
}

async function readKeyFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
