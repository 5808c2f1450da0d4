import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { runNew } from '../../src/cli/commands/new';
import { SandboxControl, startPair, type Pair } from '../../src/testing';
import { captureIo } from '../cli/cli-io';

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
        INTRABOT_SECRET_KEY: 'readyz-test-key-not-for-production',
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

describe('/readyz with a bot that fails to load', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'intrabot-readyz-broken-'));
  let pair: Pair | undefined;
  afterAll(async () => {
    await pair?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('stays 200 while another bot runs, and says which bot failed and why without naming where the bots folder is', async () => {
    const bots = join(tmp, 'bots');
    expect(await runNew(['good'], captureIo({ INTRABOT_BOTS_DIR: bots }, tmp))).toBe(0);
    mkdirSync(join(bots, 'broken'));
    writeFileSync(join(bots, 'broken', 'bot.yaml'), 'name: broken\ndisplay_name: Broken\nevents: [post.exploded]\n');
    pair = await startPair({ botsDir: bots });
    const res = await fetch(`${pair.runtime.inspect().url}/readyz`);
    const body = (await res.json()) as { ok: boolean; not_loaded: { bot: string; reason: string }[] };
    expect(res.status).toBe(200);
    expect(body.not_loaded.map((b) => b.bot)).toEqual(['broken']);
    expect(body.not_loaded[0]!.reason).toContain('broken/bot.yaml');
    expect(body.not_loaded[0]!.reason).not.toContain(tmp);
  });
});
