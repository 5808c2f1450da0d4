import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';

/** A connected runtime (the sandbox as its platform), with or without an admin token. */
async function connectedRuntime(sandbox: Sandbox, dataDir: string, adminToken?: string): Promise<Runtime> {
  const env = {
    INTRABOT_BASE_URL: sandbox.baseUrl,
    INTRABOT_TOKEN: sandbox.token,
    INTRABOT_SECRET_KEY: 'admin-routes-test-key',
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
    INTRABOT_LOG_LEVEL: 'silent',
    INTRABOT_REDIS_URL: '',
    INTRABOT_PORT: '0',
    ...(adminToken ? { INTRABOT_ADMIN_TOKEN: adminToken } : {}),
  };
  const runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env, only: ['echo'] });
  await runtime.start();
  return runtime;
}

describe('admin routes outside sandbox mode (what intrabot run, deliveries and jobs call)', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let withToken: Runtime;
  let withoutToken: Runtime;

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-admin-'));
    withToken = await connectedRuntime(sandbox, join(dataDir, 'a'), 'admin-s3cret');
    withoutToken = await connectedRuntime(sandbox, join(dataDir, 'b'));
  });
  afterAll(async () => {
    await withToken?.close();
    await withoutToken?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (runtime: Runtime, authorization?: string) => fetch(`${runtime.inspect().url}/_admin/jobs`, { headers: authorization ? { authorization } : {} });

  it('are off until INTRABOT_ADMIN_TOKEN is set', async () => {
    const res = await get(withoutToken, 'Bearer anything');
    expect(res.status).toBe(403);
    expect(JSON.stringify(await res.json())).toContain('INTRABOT_ADMIN_TOKEN');
  });

  it('refuse a missing or wrong bearer token with 401 and answer the right one, never echoing it', async () => {
    const missing = await get(withToken);
    const wrong = await get(withToken, 'Bearer admin-s3creT');
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(await wrong.text()).not.toContain('admin-s3cre');
    expect((await get(withToken, 'Bearer admin-s3cret')).status).toBe(200);
  });

  it('answer loopback callers only, even with the token', async () => {
    const res = await withToken.app.inject({
      method: 'GET',
      url: '/_admin/jobs',
      remoteAddress: '10.1.2.3',
      headers: { authorization: 'Bearer admin-s3cret' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('loopback');
  });
});
