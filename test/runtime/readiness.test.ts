import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { SandboxControl } from '../../src/testing';

/**
 * Issue #15, item 1: `/readyz` says whether the runtime can do its job, not only whether it started.
 * A runtime whose every bot provisioning switched off (the token lacks their scopes) answers 503 with
 * the reasons, while `/healthz` still says the process works.
 */
describe('/readyz', () => {
  let tmp: string;
  let sandbox: Sandbox;
  let runtime: Runtime;
  let url: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-readyz-'));
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0 });
    // a token that may only read bots: every fixture bot needs more (spec: Scopes)
    const { token } = await new SandboxControl(sandbox.baseUrl).request<{ token: string }>('POST', '/_sandbox/tokens', {
      name: 'narrow',
      scopes: ['read:bots'],
    });
    const config = loadConfig({
      env: {
        INTRABOT_BASE_URL: sandbox.baseUrl,
        INTRABOT_TOKEN: token,
        INTRABOT_SECRET_KEY: 'readyz-test-key',
        INTRABOT_PORT: '0',
        INTRABOT_DATA_DIR: join(tmp, 'data'),
        INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
        INTRABOT_LOG_LEVEL: 'silent',
        INTRABOT_REDIS_URL: '',
      },
      cwd: tmp,
    });
    runtime = await buildRuntime({ config, clock, env: {} });
    url = await runtime.start();
  });
  afterAll(async () => {
    await runtime?.close();
    await sandbox?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('answers 503 all_bots_switched_off with each bot and why when provisioning switched every bot off', async () => {
    const bots = runtime.inspect().bots.map((b) => b.name);
    expect(bots.length).toBeGreaterThan(0);
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; reason: string; switched_off: { tenant: string; bot: string; reason: string }[] };
    expect(body).toMatchObject({ ok: false, reason: 'all_bots_switched_off' });
    expect(body.switched_off.map((s) => s.bot).sort()).toEqual([...bots].sort());
    for (const off of body.switched_off) expect(off.reason).toMatch(/^the token lacks /);
  });

  it('keeps /healthz at 200: the process itself works', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
