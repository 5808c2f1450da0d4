import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { withSandboxEnv } from '../../src/runtime/config/sandbox-env';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';

/** A checkout with a sandbox.env and one bot whose manifest needs a value only that file gives. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'intrabot-sandbox-env-'));
  writeFileSync(join(root, 'sandbox.env'), '# sandbox values only\nGREETING_WALL=Company\nSHADOWED=from-file\n');
  mkdirSync(join(root, 'bots', 'greeter'), { recursive: true });
  writeFileSync(join(root, 'bots', 'greeter', 'bot.yaml'), 'name: greeter\ndisplay_name: Greeter\ntargets:\n  team: { wall: "${env:GREETING_WALL}" }\n');
  writeFileSync(join(root, 'bots', 'greeter', 'index.ts'), `import { defineBot } from '${join(process.cwd(), 'src')}';\nexport default defineBot({});\n`);
  return root;
}

describe('sandbox.env', () => {
  let root: string;
  let sandbox: Sandbox | undefined;
  let runtime: Runtime | undefined;
  beforeEach(() => {
    root = checkout();
  });
  afterEach(async () => {
    await runtime?.close();
    await sandbox?.close();
    runtime = undefined;
    sandbox = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('gives its values to ${env:...} references, the real environment winning, comments skipped', () => {
    const env = withSandboxEnv({ SHADOWED: 'from-env', EMPTY: '' }, root);
    expect(env).toMatchObject({ GREETING_WALL: 'Company', SHADOWED: 'from-env' });
    expect(Object.keys(env).some((k) => k.startsWith('#'))).toBe(false);
  });

  it('is read in sandbox mode only: connected to a platform, a bot needing its values is refused and named', async () => {
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
    const base = {
      INTRABOT_BOTS_DIR: join(root, 'bots'),
      INTRABOT_DATA_DIR: join(root, 'data'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_PORT: '0',
    };

    const inSandbox = { ...base, INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port };
    runtime = await buildRuntime({ config: loadConfig({ env: inSandbox, cwd: root }), clock, env: inSandbox, rootDir: root });
    expect(runtime.inspect().bots.map((b) => b.name)).toEqual(['greeter']);
    await runtime.close();

    const connected = {
      ...base,
      INTRABOT_BASE_URL: sandbox.baseUrl,
      INTRABOT_TOKEN: sandbox.token,
      INTRABOT_SECRET_KEY: 'sandbox-env-test-key',
      INTRABOT_DATA_DIR: join(root, 'data-connected'),
    };
    runtime = await buildRuntime({ config: loadConfig({ env: connected, cwd: root }), clock, env: connected, rootDir: root });
    expect(runtime.inspect().bots).toEqual([]);
    expect(runtime.inspect().failures[0]?.error.message).toMatch(/bot\.yaml:4 .*GREETING_WALL/);
  });

  it("refuses, in connected mode, a bot whose report uses the sandbox's published report secret", async () => {
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
    writeFileSync(
      join(root, 'bots', 'greeter', 'bot.yaml'),
      'name: greeter\ndisplay_name: Greeter\nreports:\n  - report: todoliststats.daily\n    secret: sandbox-report-secret\n',
    );
    const connected = {
      INTRABOT_BOTS_DIR: join(root, 'bots'),
      INTRABOT_DATA_DIR: join(root, 'data'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_PORT: '0',
      INTRABOT_BASE_URL: sandbox.baseUrl,
      INTRABOT_TOKEN: sandbox.token,
      INTRABOT_SECRET_KEY: 'sandbox-env-test-key',
    };
    runtime = await buildRuntime({ config: loadConfig({ env: connected, cwd: root }), clock, env: connected, rootDir: root });
    expect(runtime.inspect().bots).toEqual([]);
    expect(runtime.inspect().failures[0]?.error.message).toMatch(/bot\.yaml reports\.0\.secret: .*published secret/);
  });
});
