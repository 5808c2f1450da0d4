import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiNetworkError, ApiServerError, ApiTimeoutError } from '../../src/api/errors';
import { AdjustableClock } from '../../src/clock';
import { openStore } from '../../src/store/open-store';
import { loadConfig } from '../../src/runtime/config/config';
import { provisionedBefore } from '../../src/runtime/start/provisioning';
import { StartupError, isTransient, platformFailure } from '../../src/runtime/start/start-failure';

const TOKEN_PATH = { method: 'GET', path: '/api/open/v1/token' };
const networkFault = (code: string) => new ApiNetworkError(TOKEN_PATH, false, { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }) });

const env = {
  INTRABOT_BASE_URL: 'http://127.0.0.1:9',
  INTRABOT_TOKEN: 'svc_secretsecret9876',
  INTRABOT_SECRET_KEY: 'start-unreachable-test-key',
  INTRABOT_PUBLIC_URL: 'https://bots.example.com',
};
const config = loadConfig({ env, cwd: mkdtempSync(join(tmpdir(), 'intrabot-unreachable-')) });

/** Issue #24, item 2: a wrong base URL is named at once, an outage is waited out. */
describe('start against a platform that cannot be reached', () => {
  it('does not retry a refused connection to a tenant never provisioned from this store', () => {
    expect(isTransient(networkFault('ECONNREFUSED'), { firstContact: true })).toBe(false);
  });

  it('retries a refused connection to a tenant provisioned before (the platform may be restarting)', () => {
    expect(isTransient(networkFault('ECONNREFUSED'), { firstContact: false })).toBe(true);
  });

  it('never retries a host name that does not resolve, and always retries EAI_AGAIN, 5xx and timeouts', () => {
    for (const firstContact of [true, false]) {
      expect(isTransient(networkFault('ENOTFOUND'), { firstContact })).toBe(false);
      expect(isTransient(networkFault('EAI_AGAIN'), { firstContact })).toBe(true);
      expect(isTransient(new ApiServerError({ ...TOKEN_PATH, status: 503 }, 'down'), { firstContact })).toBe(true);
      expect(isTransient(new ApiTimeoutError(TOKEN_PATH, 'headers'), { firstContact })).toBe(true);
    }
  });

  it.each([
    ['ECONNREFUSED', 'nothing accepts connections there (ECONNREFUSED)'],
    ['ENOTFOUND', 'the host name does not resolve (ENOTFOUND)'],
  ])('explains %s as a configuration error naming the tenant and the URL, with a hint and no token', (code, said) => {
    const error = platformFailure(networkFault(code), { config, env, tenant: 'default', firstContact: true }, { attempts: 1, seconds: 0 });
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as StartupError).message;
    expect((error as StartupError).setting).toBe('INTRABOT_BASE_URL');
    expect(message).toContain(`INTRABOT_BASE_URL=http://127.0.0.1:9 (tenant default): cannot reach the platform: ${said}`);
    expect(message).toContain('is the URL right');
    expect(message).toContain('is the platform reachable from here');
    expect(message).not.toContain('secretsecret');
  });

  it('explains a refused connection to a known tenant, after the wait, as a platform that did not answer', () => {
    const error = platformFailure(networkFault('ECONNREFUSED'), { config, env, tenant: 'default', firstContact: false }, { attempts: 7, seconds: 60 });
    expect((error as StartupError).message).toContain('did not answer usably in 7 attempt(s) over 60 s');
  });

  it('knows a tenant as provisioned before once the store holds its provisioning result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-unreachable-store-'));
    const store = await openStore(
      { kind: 'sqlite', path: join(dir, 'intrabot.db') },
      { clock: new AdjustableClock(), secretKey: 'start-unreachable-test-key' },
    );
    try {
      expect(await provisionedBefore(store, ['default', 'acme'])).toEqual(new Set());
      await store.kv('runtime:provision').set('acme', { at: 0, result: {} });
      expect(await provisionedBefore(store, ['default', 'acme'])).toEqual(new Set(['acme']));
    } finally {
      await store.close();
    }
  });
});
