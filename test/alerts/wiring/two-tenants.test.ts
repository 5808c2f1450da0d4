// Alert inputs on a runtime with two tenants, over real HTTP with a sandbox per tenant: the request's
// tenant (`/t/:tenant/alerts/...`) decides the deployment, its templates and its time zone.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../src/clock';
import { buildRuntime, type Runtime } from '../../../src/runtime/build-runtime';
import { loadConfig } from '../../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../../src/sandbox/sandbox';
import { SandboxControl } from '../../../src/testing';
import { firingAlert } from './alert-requests';

const TOKEN = 'two-tenant-alert-token';

/** A bot with an Alertmanager input posting on the Company wall (id 1 in the demo seed), deployed to `tenants` (all when absent). */
async function writeAlertBot(botsDir: string, name: string, tenants?: string[]): Promise<void> {
  await mkdir(join(botsDir, name));
  const deploy = tenants ? `tenants: [${tenants.join(', ')}]\n` : '';
  await writeFile(
    join(botsDir, name, 'bot.yaml'),
    `name: ${name}\ndisplay_name: ${name}\n${deploy}targets:\n  company: { wall: 1 }\nalerts:\n  - input: am\n    format: alertmanager\n    auth: { bearer: ${TOKEN} }\n    targets: [company]\n`,
  );
  await writeFile(join(botsDir, name, 'index.ts'), `import { defineBot } from '${resolve('src/index.ts')}';\nexport default defineBot({});\n`);
}

describe('alert inputs on two tenants', () => {
  const clock = new AdjustableClock();
  let alpha: Sandbox;
  let beta: Sandbox;
  let runtime: Runtime;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-two-tenants-'));
    const botsDir = join(dir, 'bots');
    await mkdir(botsDir);
    await writeAlertBot(botsDir, 'beta-alerts', ['beta']);
    await writeAlertBot(botsDir, 'shared-alerts');
    [alpha, beta] = await Promise.all([createSandbox({ clock, port: 0 }), createSandbox({ clock, port: 0 })]);
    const base = loadConfig({
      env: { INTRABOT_PORT: '0', INTRABOT_DATA_DIR: join(dir, 'data'), INTRABOT_BOTS_DIR: botsDir, INTRABOT_LOG_LEVEL: 'silent' },
      cwd: dir,
    });
    const tenant = base.tenants[0]!;
    const config = {
      ...base,
      tenants: [
        { ...tenant, id: 'alpha', base_url: alpha.baseUrl, timezone: 'Europe/Berlin' },
        { ...tenant, id: 'beta', base_url: beta.baseUrl, timezone: 'America/New_York' },
      ],
    };
    runtime = await buildRuntime({ config, clock, env: {}, pollMs: 100, rootDir: dir });
    await runtime.start();
  });
  afterAll(async () => {
    await runtime?.close();
    await Promise.all([alpha?.close(), beta?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  const postAlert = (path: string, name: string) =>
    fetch(`${runtime.inspect().url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: firingAlert(name),
    });

  const postsOn = (sandbox: Sandbox, text: string) =>
    new SandboxControl(sandbox.baseUrl).waitFor(
      async () => (await new SandboxControl(sandbox.baseUrl).wallPosts(1)).filter((p) => String(p.body).includes(text)),
      (posts) => posts.length > 0,
    );

  it('accepts an alert at /t/beta/alerts for a bot deployed to beta only, and posts it on beta', async () => {
    const answer = await postAlert('/t/beta/alerts/beta-alerts/am', 'BetaOnly');
    expect(answer.status).toBe(202);
    expect((await postsOn(beta, 'BetaOnly'))[0]?.body).toContain('FIRING');
  });

  it('refuses the same bot on the default tenant, where it is not deployed', async () => {
    expect((await postAlert('/alerts/beta-alerts/am', 'NotOnAlpha')).status).toBe(404);
  });

  it("renders a bot deployed to both tenants in the request's tenant's time zone", async () => {
    // the alert started at 09:00 UTC: 05:00 in New York, 11:00 in Berlin
    expect((await postAlert('/t/beta/alerts/shared-alerts/am', 'InBetaZone')).status).toBe(202);
    expect((await postAlert('/alerts/shared-alerts/am', 'InAlphaZone')).status).toBe(202);
    const [onBeta] = await postsOn(beta, 'InBetaZone');
    const [onAlpha] = await postsOn(alpha, 'InAlphaZone');
    expect(onBeta?.body).toMatch(/05:00/);
    expect(onBeta?.body).not.toMatch(/11:00/);
    expect(onAlpha?.body).toMatch(/11:00/);
  });
});
