import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config/config';
import { SettingsError } from '../../src/runtime/config/config-problems';
import { FILE_SETTINGS, readSettingFiles } from '../../src/runtime/config/setting-files';

const dir = () => mkdtempSync(join(tmpdir(), 'intrabot-setting-files-'));
const KEY = 'setting-files-test-key-not-for-production';

/** A file holding `content`, as a mounted Docker or Kubernetes secret. */
function secret(content: string): string {
  const path = join(dir(), 'value');
  writeFileSync(path, content);
  return path;
}

function problemsOf(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('expected a SettingsError');
}

/** Issue #24, item 3: every secret setting is also accepted as <NAME>_FILE (docs/configuration.md: Secrets from files). */
describe('secret settings from files (<NAME>_FILE)', () => {
  it('reads INTRABOT_TOKEN, INTRABOT_SECRET_KEY and INTRABOT_ADMIN_TOKEN from files, trailing newline trimmed', () => {
    const config = loadConfig({
      env: {
        INTRABOT_BASE_URL: 'https://acme.example.com',
        INTRABOT_TOKEN_FILE: secret('svc_from_a_file\n'),
        INTRABOT_SECRET_KEY_FILE: secret(`${KEY}\n`),
        INTRABOT_ADMIN_TOKEN_FILE: secret('admin-token-from-a-file\r\n'),
      },
      cwd: dir(),
    });
    expect(config.tenants[0]?.token).toBe('svc_from_a_file');
    expect(config.secret_key).toBe(KEY);
    expect(config.admin_token).toBe('admin-token-from-a-file');
  });

  it('reads INTRABOT_REDIS_URL (its password) and INTRABOT_WEBHOOK_SECRETS from files', () => {
    const config = loadConfig({
      env: {
        INTRABOT_REDIS_URL_FILE: secret('redis://:hunter2@redis:6379\n'),
        INTRABOT_WEBHOOK_SECRETS_FILE: secret('kudos:0123456789abcdef0123\n'),
      },
      cwd: dir(),
    });
    expect(config.redis_url).toBe('redis://:hunter2@redis:6379');
    expect(config.tenants[0]?.webhook_secrets).toEqual({ kudos: ['0123456789abcdef0123'] });
  });

  it('covers every secret setting the runtime reads from the environment', () => {
    expect([...FILE_SETTINGS].sort()).toEqual([
      'INTRABOT_ADMIN_TOKEN',
      'INTRABOT_DATABASE_URL',
      'INTRABOT_REDIS_URL',
      'INTRABOT_SECRET_KEY',
      'INTRABOT_TOKEN',
      'INTRABOT_WEBHOOK_SECRETS',
    ]);
  });

  it('refuses NAME and NAME_FILE both set, naming both', () => {
    const env = { INTRABOT_ADMIN_TOKEN: 'direct-admin-token', INTRABOT_ADMIN_TOKEN_FILE: secret('file-admin-token') };
    const error = problemsOf(() => loadConfig({ env, cwd: dir() }));
    expect(error.key).toBe('INTRABOT_ADMIN_TOKEN_FILE');
    expect(error.message).toBe(
      'INTRABOT_ADMIN_TOKEN and INTRABOT_ADMIN_TOKEN_FILE are both set: keep one (INTRABOT_ADMIN_TOKEN_FILE names a file holding the value)',
    );
  });

  it('refuses a file it cannot read or that is empty, naming the variable and the path, once, and never the content', () => {
    const empty = secret('\n');
    const error = problemsOf(() =>
      loadConfig({
        env: {
          INTRABOT_BASE_URL: 'https://acme.example.com',
          INTRABOT_TOKEN: 'svc_abc',
          INTRABOT_SECRET_KEY_FILE: '/nonexistent/secret.key',
          INTRABOT_ADMIN_TOKEN_FILE: empty,
        },
        cwd: dir(),
      }),
    );
    // the unreadable key file is its one problem: not a second "INTRABOT_SECRET_KEY is required"
    expect(error.problems.map((p) => p.setting)).toEqual(['INTRABOT_SECRET_KEY_FILE', 'INTRABOT_ADMIN_TOKEN_FILE']);
    expect(error.message).toContain('INTRABOT_SECRET_KEY_FILE=/nonexistent/secret.key: cannot read the file (ENOENT)');
    expect(error.message).toContain(`INTRABOT_ADMIN_TOKEN_FILE=${empty}: the file is empty`);
  });

  it('does not show a file content in its error, even when the value it holds is refused', () => {
    const error = problemsOf(() =>
      loadConfig({
        env: { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN_FILE: secret('tok_0123456789abcdef\n'), INTRABOT_SECRET_KEY: KEY },
        cwd: dir(),
      }),
    );
    expect(error.message).toContain('INTRABOT_TOKEN: must be a platform token');
    expect(error.message).not.toContain('0123456789');
  });

  it('resolves ${env:X} in intrabot.yaml from X_FILE (a proxy key, a tenant token)', () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, 'intrabot.yaml'),
      [
        'secret_key: ${env:KEY}',
        'tenants:',
        '  - { id: acme, base_url: "https://acme.example.com", token: ${env:ACME_TOKEN} }',
        'proxy:',
        '  keys:',
        '    - { name: dashboards, key: ${env:DASHBOARD_PROXY_KEY}, scopes: ["*"] }',
        '',
      ].join('\n'),
    );
    const config = loadConfig({
      env: { KEY_FILE: secret(KEY), ACME_TOKEN_FILE: secret('svc_acme_from_file\n'), DASHBOARD_PROXY_KEY_FILE: secret('dashboard-key-0123456789\n') },
      cwd,
    });
    expect(config.tenants[0]?.token).toBe('svc_acme_from_file');
    expect(config.proxy?.keys[0]?.key).toBe('dashboard-key-0123456789');
  });

  it('gives the CLI an environment with the files read in, and the _FILE variable gone (so loadConfig does not see both)', () => {
    const { env, problems } = readSettingFiles({ INTRABOT_ADMIN_TOKEN_FILE: secret('admin-token-from-a-file\n'), OTHER_FILE: '/not/read' });
    expect(problems).toEqual([]);
    expect(env).toEqual({ INTRABOT_ADMIN_TOKEN: 'admin-token-from-a-file', OTHER_FILE: '/not/read' });
    expect(loadConfig({ env, cwd: dir() }).admin_token).toBe('admin-token-from-a-file');
  });
});
