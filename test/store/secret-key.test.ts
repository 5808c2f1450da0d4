import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors';
import { SECRET_KEY_FILE, resolveSecretKey } from '../../src/store';

describe('resolveSecretKey', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'intrabot-key-')), 'nested');
  });

  afterEach(async () => {
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('takes INTRABOT_SECRET_KEY when set, in either mode, and writes no key file', async () => {
    const env = { INTRABOT_SECRET_KEY: ' from-env ' };
    expect(await resolveSecretKey({ env, mode: 'connected', dataDir })).toBe('from-env');
    expect(await resolveSecretKey({ env, mode: 'sandbox', dataDir })).toBe('from-env');
    await expect(stat(join(dataDir, SECRET_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates a 32-byte key file with mode 0600 in sandbox mode and reuses it', async () => {
    const first = await resolveSecretKey({ env: {}, mode: 'sandbox', dataDir });
    const file = join(dataDir, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(first, 'base64')).toHaveLength(32);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(await resolveSecretKey({ env: {}, mode: 'sandbox', dataDir })).toBe(first);
  });

  it('gives every process starting at once the same sandbox key', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => resolveSecretKey({ env: {}, mode: 'sandbox', dataDir })));
    expect(new Set(keys).size).toBe(1);
  });

  it('refuses to start in connected mode without the key, naming INTRABOT_SECRET_KEY', async () => {
    const error = await resolveSecretKey({ env: {}, mode: 'connected', dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ key: 'INTRABOT_SECRET_KEY', code: 'secret_key_missing' });
    expect(String((error as Error).message)).toContain('INTRABOT_SECRET_KEY');
    await expect(stat(join(dataDir, SECRET_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
