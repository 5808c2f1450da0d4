import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config/config';
import { configErrorOf } from '../helpers/config-error';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'intrabot-secrets-config-'));
const CONNECTED = { INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc', INTRABOT_SECRET_KEY: 'configured-secrets-test-key' };
const S1 = 'first-secret-0123456789abcdef';
const S2 = 'second-secret-0123456789abcdef';

describe('webhook_secrets: signing secrets of endpoints managed outside intrabot', () => {
  it('gives the environment tenant every secret INTRABOT_WEBHOOK_SECRETS lists, per bot', () => {
    const config = loadConfig({ env: { ...CONNECTED, INTRABOT_WEBHOOK_SECRETS: `kudos:${S1}, kudos:${S2},alerts:${S1}` }, cwd: emptyDir() });
    expect(config.tenants[0]?.webhook_secrets).toEqual({ kudos: [S1, S2], alerts: [S1] });
  });

  it('reads a tenant webhook_secrets from intrabot.yaml', () => {
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, 'intrabot.yaml'),
      `secret_key: ${'configured-secrets-test-key'}\ntenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: svc_abc\n    webhook_secrets: { kudos: [${S1}, \${env:KUDOS_OLD}] }\n`,
    );
    const config = loadConfig({ env: { KUDOS_OLD: S2 }, cwd });
    expect(config.tenants[0]?.webhook_secrets).toEqual({ kudos: [S1, S2] });
  });

  it('refuses a malformed INTRABOT_WEBHOOK_SECRETS entry, naming the variable and the entry, never the secret', () => {
    const short = configErrorOf(() => loadConfig({ env: { ...CONNECTED, INTRABOT_WEBHOOK_SECRETS: `kudos:${S1},kudos:tooshort` }, cwd: emptyDir() }));
    expect(short.key).toBe('INTRABOT_WEBHOOK_SECRETS');
    expect(short.message).toContain('entry 2');
    expect(short.message).not.toContain('tooshort');
    const noBot = configErrorOf(() => loadConfig({ env: { ...CONNECTED, INTRABOT_WEBHOOK_SECRETS: S1 }, cwd: emptyDir() }));
    expect(noBot.message).toMatch(/INTRABOT_WEBHOOK_SECRETS: entry 1: must be <bot>:<secret>/);
    expect(noBot.message).not.toContain(S1);
  });

  it('refuses a short secret in intrabot.yaml, naming the setting and masking the value', () => {
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, 'intrabot.yaml'),
      `secret_key: ${'configured-secrets-test-key'}\ntenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: svc_abc\n    webhook_secrets: { kudos: [short-secret-x] }\n`,
    );
    const error = configErrorOf(() => loadConfig({ env: {}, cwd }));
    expect(error.message).toContain('tenants[0].webhook_secrets.kudos[0]');
    expect(error.message).not.toContain('short-secret-x');
  });

  it('refuses INTRABOT_WEBHOOK_SECRETS when no tenant comes from the environment', () => {
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, 'intrabot.yaml'),
      `secret_key: ${'configured-secrets-test-key'}\ntenants:\n  - id: acme\n    base_url: https://acme.example.com\n    token: svc_abc\n`,
    );
    const error = configErrorOf(() => loadConfig({ env: { INTRABOT_WEBHOOK_SECRETS: `kudos:${S1}` }, cwd }));
    expect(error.key).toBe('INTRABOT_WEBHOOK_SECRETS');
    expect(error.message).toContain('webhook_secrets');
  });
});
