import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/bots/manifest-loader';
import { peekManifest } from '../../src/bots/manifest-peek';
import { scaffoldFiles } from '../../src/cli/commands/new';
import { AdjustableClock } from '../../src/clock';
import { ConfigError } from '../../src/errors';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { skipReason } from '../../src/runtime/config/bot-selection';
import { loadConfig } from '../../src/runtime/config/config';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'intrabot-bot-selection-'));
const example = { name: 'birthday', example: true };
const own = { name: 'payroll', example: false };
const unset = { enabled: undefined, setting: 'INTRABOT_BOTS' };

describe('which bots a runtime deploys', () => {
  it('deploys every bot in sandbox mode, example or not, when no list is set', () => {
    expect(skipReason({ mode: 'sandbox', ...unset }, example)).toBeUndefined();
    expect(skipReason({ mode: 'sandbox', ...unset }, own)).toBeUndefined();
  });

  it('skips example bots in connected mode when no list is set, saying how to enable one; a bot of your own deploys', () => {
    expect(skipReason({ mode: 'connected', ...unset }, example)).toBe('example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it');
    expect(skipReason({ mode: 'connected', ...unset }, own)).toBeUndefined();
  });

  it('deploys exactly the listed bots in either mode, naming the list a skipped bot is missing from', () => {
    for (const mode of ['sandbox', 'connected'] as const) {
      const choice = { mode, enabled: ['birthday', 'alerts'], setting: 'INTRABOT_BOTS' };
      expect(skipReason(choice, example)).toBeUndefined();
      expect(skipReason(choice, own)).toBe('not in INTRABOT_BOTS (birthday,alerts)');
      expect(skipReason(choice, { name: 'ops', example: true })).toBe('example bot, not enabled: add it to INTRABOT_BOTS (birthday,alerts) to deploy it');
    }
  });
});

describe('INTRABOT_BOTS and `bots:` in intrabot.yaml', () => {
  it('reads INTRABOT_BOTS as a comma-separated list, spaces around names ignored; empty means not set', () => {
    expect(loadConfig({ env: { INTRABOT_BOTS: 'birthday, alerts' }, cwd: emptyDir() }).bots).toEqual(['birthday', 'alerts']);
    expect(loadConfig({ env: { INTRABOT_BOTS: '' }, cwd: emptyDir() }).bots).toBeUndefined();
  });

  it('lets INTRABOT_BOTS win over the file, as every variable does', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), 'bots: [ops]\n');
    expect(loadConfig({ env: {}, cwd: dir }).bots).toEqual(['ops']);
    expect(loadConfig({ env: { INTRABOT_BOTS: 'kudos' }, cwd: dir }).bots).toEqual(['kudos']);
  });

  it('refuses an empty name in the list, naming the setting the user wrote', () => {
    const error = (() => {
      try {
        loadConfig({ env: { INTRABOT_BOTS: 'birthday,,alerts' }, cwd: emptyDir() });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ key: 'INTRABOT_BOTS', message: 'INTRABOT_BOTS: a bot name cannot be empty' });

    const dir = emptyDir();
    writeFileSync(join(dir, 'intrabot.yaml'), 'bots: []\n');
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow('intrabot.yaml: bots: name at least one bot, or leave the setting out');
  });
});

describe('INTRABOT_BOTS in sandbox mode', () => {
  let runtime: Runtime | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await runtime?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('selects the bots of this repository that run against the sandbox too', async () => {
    dir = emptyDir();
    const env = { INTRABOT_BOTS_DIR: resolve('bots'), INTRABOT_DATA_DIR: dir, INTRABOT_LOG_LEVEL: 'silent', INTRABOT_REDIS_URL: '', INTRABOT_BOTS: 'ops' };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dir }), clock: new AdjustableClock(), env });
    expect(runtime.inspect().deployments).toEqual([{ tenant: 'sandbox', bot: 'ops' }]);
    expect(runtime.inspect().skipped.find((s) => s.name === 'birthday')?.reason).toBe('example bot, not enabled: add it to INTRABOT_BOTS (ops) to deploy it');
  });
});

describe('scaffolded bots', () => {
  it('are not examples: a bot made by `intrabot new` (and `intrabot init`, whose hello bot it makes) deploys in connected mode', () => {
    const manifest = parseManifest(scaffoldFiles('greeter')['bot.yaml']!, 'bots/greeter/bot.yaml', {});
    expect(manifest.example).toBe(false);
    expect(skipReason({ mode: 'connected', ...unset }, manifest)).toBeUndefined();
  });
});

describe('peekManifest', () => {
  it("reads a manifest's name and example flag without resolving its environment references", () => {
    expect(peekManifest('name: alerts\nexample: true\nalerts:\n  - { input: a, auth: { bearer: "${env:ALERT_TOKEN}" } }\n')).toEqual({
      name: 'alerts',
      example: true,
    });
    expect(peekManifest('name: payroll\n')).toEqual({ name: 'payroll', example: false });
  });

  it('gives nothing for a name taken from the environment or text that is no mapping', () => {
    expect(peekManifest('name: ${env:BOT_NAME}\nexample: true\n')).toBeUndefined();
    expect(peekManifest('- just a list\n')).toBeUndefined();
    expect(peekManifest('name: [unclosed\n')).toBeUndefined();
  });
});
