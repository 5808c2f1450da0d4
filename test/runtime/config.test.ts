import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors';
import { loadConfig } from '../../src/runtime/config/config';

/** A passphrase strong enough for connected mode (20+ characters, not a repeated few). */
const KEY = 'config-test-key-not-for-production';
const emptyDir = () => mkdtempSync(join(tmpdir(), 'intrabot-config-'));

function expectConfigError(fn: () => unknown, key: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).key).toBe(key);
    expect((error as ConfigError).message).toContain(key);
    return;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('runs in sandbox mode against the embedded emulator when no tenant is configured', () => {
    const config = loadConfig({ env: {}, cwd: emptyDir() });
    expect(config.mode).toBe('sandbox');
    expect(config.tenants).toEqual([expect.objectContaining({ id: 'sandbox', base_url: 'http://127.0.0.1:4010', token: 'svc_sandbox_token' })]);
    expect(config.port).toBe(3000);
  });

  it('makes a tenant "default" from INTRABOT_BASE_URL and INTRABOT_TOKEN (connected mode)', () => {
    const config = loadConfig({
      env: { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc', INTRABOT_SECRET_KEY: KEY },
      cwd: emptyDir(),
    });
    expect(config.mode).toBe('connected');
    expect(config.tenants[0]).toMatchObject({ id: 'default', base_url: 'https://acme.example.com', event_prefix: 'service' });
  });

  it('refuses connected mode without INTRABOT_SECRET_KEY, naming it', () => {
    expectConfigError(
      () => loadConfig({ env: { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc' }, cwd: emptyDir() }),
      'INTRABOT_SECRET_KEY',
    );
  });

  it('names the env var of a bad port', () => {
    expectConfigError(() => loadConfig({ env: { INTRABOT_PORT: 'eighty' }, cwd: emptyDir() }), 'INTRABOT_PORT');
  });

  it('refuses a token that is not a platform token, naming the variable the user set (issue #15)', () => {
    expectConfigError(
      () => loadConfig({ env: { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'abc', INTRABOT_SECRET_KEY: 'x' }, cwd: emptyDir() }),
      'INTRABOT_TOKEN',
    );
  });

  it('names a bad tenant field of intrabot.yaml as written there (tenants[0].token), after a tenant from the environment too', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), 'secret_key: k\ntenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: not-a-token\n');
    expectConfigError(() => loadConfig({ env: {}, cwd: dir }), 'intrabot.yaml: tenants[0].token');
    const env = { INTRABOT_BASE_URL: 'https://main.example.com', INTRABOT_TOKEN: 'svc_main' };
    expectConfigError(() => loadConfig({ env, cwd: dir }), 'intrabot.yaml: tenants[0].token');
  });

  it('shows the value beside the setting, a secret masked', () => {
    expect(() => loadConfig({ env: { INTRABOT_LOG_LEVEL: 'loud' }, cwd: emptyDir() })).toThrow('INTRABOT_LOG_LEVEL: ');
    expect(() => loadConfig({ env: { INTRABOT_LOG_LEVEL: 'loud' }, cwd: emptyDir() })).toThrow('(got "loud")');
    const env = { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'tok_0123456789abcdef', INTRABOT_SECRET_KEY: 'x' };
    expect(() => loadConfig({ env, cwd: emptyDir() })).toThrow('(got "tok_…cdef")');
    expect(() => loadConfig({ env, cwd: emptyDir() })).not.toThrow('0123456789');
  });

  it('reads tenants from intrabot.yaml with ${env:...} references resolved', () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, 'intrabot.yaml'),
      'secret_key: ${env:KEY}\ntenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: ${env:ACME_TOKEN}\n    event_prefix: acme\n  - { id: globex, base_url: "https://globex.example.com", token: ${env:GLOBEX_TOKEN:-svc_globex} }\n',
    );
    const config = loadConfig({ env: { KEY, ACME_TOKEN: 'svc_acme' }, cwd: dir });
    expect(config.tenants).toEqual([
      expect.objectContaining({ id: 'acme', token: 'svc_acme', event_prefix: 'acme' }),
      expect.objectContaining({ id: 'globex', token: 'svc_globex' }),
    ]);
  });

  it('names the yaml path of an env reference that is not set', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), 'tenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: ${env:MISSING_TOKEN}\n');
    expectConfigError(() => loadConfig({ env: {}, cwd: dir }), 'intrabot.yaml: tenants[0].token');
  });

  it('accepts the documented example file intrabot.example.yaml', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), readFileSync('intrabot.example.yaml', 'utf8'));
    const env = {
      INTRABOT_SECRET_KEY: KEY,
      INTRABOT_ADMIN_TOKEN: 'a',
      ACME_TOKEN: 'svc_acme',
      DASHBOARD_PROXY_KEY: 'a-long-dashboard-key-0123456789',
      DEPLOY_PROXY_KEY: 'a-long-deploy-key-0123456789',
    };
    const config = loadConfig({ env, cwd: dir });
    expect(config).toMatchObject({
      mode: 'connected',
      public_url: 'https://bots.example.com',
      tenants: [expect.objectContaining({ id: 'acme', event_prefix: 'acme' })],
    });
    expect(config.proxy?.keys.map((k) => k.name)).toEqual(['reporting-dashboard', 'deploy-script']);
  });
});
