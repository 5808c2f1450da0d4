import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors';
import { loadConfig } from '../../src/runtime/config/config';
import { SettingsError } from '../../src/runtime/config/config-problems';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'intrabot-config-problems-'));
const KEY = 'all-problems-test-key-not-for-production';

function problemsOf(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('expected a SettingsError');
}

/** Issue #24, item 1: a new user learns every missing or invalid setting from one run, not one per run. */
describe('loadConfig reports every problem at once', () => {
  it('lists a bad token, a missing secret key, a bad port and a bad log level in one error, each by name', () => {
    const env = { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'abc', INTRABOT_PORT: 'eighty', INTRABOT_LOG_LEVEL: 'loud' };
    const error = problemsOf(() => loadConfig({ env, cwd: emptyDir() }));
    expect(error.problems.map((p) => p.setting).sort()).toEqual(['INTRABOT_LOG_LEVEL', 'INTRABOT_PORT', 'INTRABOT_SECRET_KEY', 'INTRABOT_TOKEN']);
    expect(error.message).toMatch(/^4 settings need fixing:\n/);
    expect(error.message).toContain('  - INTRABOT_TOKEN: must be a platform token');
    expect(error.message).toContain('  - INTRABOT_PORT: must be a port number');
    expect(error.message).toContain('  - INTRABOT_LOG_LEVEL: ');
    expect(error.message).toContain('  - INTRABOT_SECRET_KEY is required in connected mode');
    // still a ConfigError naming the first setting, for code that handles one
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('invalid_config');
  });

  it('with forStart, names the missing INTRABOT_PUBLIC_URL beside the missing INTRABOT_SECRET_KEY', () => {
    const env = { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc' };
    const error = problemsOf(() => loadConfig({ env, cwd: emptyDir(), forStart: true }));
    expect(error.problems.map((p) => p.setting)).toEqual(['INTRABOT_SECRET_KEY', 'INTRABOT_PUBLIC_URL']);
    expect(error.message).toContain('INTRABOT_PUBLIC_URL is required in connected mode');
    // other commands (jobs, outbox) need no public URL
    expect(() => loadConfig({ env: { ...env, INTRABOT_SECRET_KEY: KEY }, cwd: emptyDir() })).not.toThrow();
  });

  it('names a missing token once, not again as a missing tenant', () => {
    const error = problemsOf(() => loadConfig({ env: { INTRABOT_BASE_URL: 'https://acme.example.com' }, cwd: emptyDir() }));
    expect(error.problems.map((p) => p.setting)).toEqual(['INTRABOT_TOKEN', 'INTRABOT_SECRET_KEY']);
  });

  it('lists every unset ${env:...} reference of intrabot.yaml by where it is written', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), 'secret_key: ${env:KEY}\ntenants:\n  - id: acme\n    base_url: ${env:ACME_URL}\n    token: ${env:ACME_TOKEN}\n');
    const error = problemsOf(() => loadConfig({ env: {}, cwd: dir }));
    expect(error.problems.map((p) => p.setting)).toEqual([
      'intrabot.yaml: secret_key',
      'intrabot.yaml: tenants[0].base_url',
      'intrabot.yaml: tenants[0].token',
    ]);
    expect(error.message).toContain('environment variable ACME_TOKEN is not set');
  });

  it('keeps the one-line message of a single problem', () => {
    const error = problemsOf(() => loadConfig({ env: { INTRABOT_PORT: 'eighty' }, cwd: emptyDir() }));
    expect(error.message).toBe('INTRABOT_PORT: must be a port number (0-65535), got "eighty"');
    expect(error.key).toBe('INTRABOT_PORT');
  });
});

describe('INTRABOT_SECRET_KEY in connected mode', () => {
  const connected = (key: string) => ({ INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc', INTRABOT_SECRET_KEY: key });

  it('when missing, says the format it takes and how to make one', () => {
    const error = problemsOf(() => loadConfig({ env: connected(''), cwd: emptyDir() }));
    expect(error.message).toContain('INTRABOT_SECRET_KEY is required in connected mode');
    expect(error.message).toContain('base64');
    expect(error.message).toContain('openssl rand -base64 32');
  });

  it.each([
    ['hunter2', 'is 7 characters long'],
    ['k'.repeat(32), 'only 1 distinct character'],
    ['0'.repeat(64), 'repeats 1 character'],
    ['changeme-changeme-changeme', 'only 8 distinct character'],
    // deploy/kubernetes/secret.yaml's placeholder, long and varied enough to pass as a passphrase otherwise
    ['REPLACE_WITH_OPENSSL_RAND_BASE64_32', 'is a placeholder from an example'],
  ])('refuses the weak key %j, saying why and how to make a good one, without showing it', (key, why) => {
    const error = problemsOf(() => loadConfig({ env: connected(key), cwd: emptyDir() }));
    expect(error.key).toBe('INTRABOT_SECRET_KEY');
    expect(error.message).toContain('INTRABOT_SECRET_KEY is too weak');
    expect(error.message).toContain(why);
    expect(error.message).toContain('openssl rand -base64 32');
    expect(error.message).not.toContain(key);
  });

  it.each([
    ['openssl rand -base64 32', randomBytes(32).toString('base64')],
    ['openssl rand -hex 32', randomBytes(32).toString('hex')],
    ['a long passphrase', 'correct horse battery staple'],
  ])('accepts a key made by %s', (_how, key) => {
    expect(loadConfig({ env: connected(key), cwd: emptyDir() }).secret_key).toBe(key);
  });

  it('is not checked in sandbox mode, where the runtime makes its own key file', () => {
    expect(loadConfig({ env: { INTRABOT_SECRET_KEY: 'hunter2' }, cwd: emptyDir() }).mode).toBe('sandbox');
  });
});
