import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProvision } from '../../src/cli/commands/provision';
import { runRun } from '../../src/cli/commands/run';
import { RETIRED_SUFFIX } from '../../src/bots/provision/provision-bot';
import { bannerInput, bannerText } from '../../src/cli/start-banner';
import { AdjustableClock } from '../../src/clock';
import { ConfigError } from '../../src/errors';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { loggerOptions } from '../../src/runtime/logger';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { captureIo, freePort } from '../cli/cli-io';

/** This repository's own bots: every one of them is an example (`example: true`). */
const REPO_BOTS = resolve('bots');
const EXAMPLES = readdirSync(REPO_BOTS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/**
 * Issue #14, item 5: connected mode (a tenant configured; here the sandbox plays the customer's
 * platform, reached over real HTTP with its token) deploys no example bot unless it is enabled by name.
 */
describe('example bots in connected mode', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let runtime: Runtime | undefined;

  beforeEach(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-examples-'));
  });
  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const connectedEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
    INTRABOT_BASE_URL: sandbox.baseUrl,
    INTRABOT_TOKEN: sandbox.token,
    INTRABOT_SECRET_KEY: 'example-bots-test-key',
    INTRABOT_DATA_DIR: dataDir,
    INTRABOT_BOTS_DIR: REPO_BOTS,
    INTRABOT_LOG_LEVEL: 'silent',
    INTRABOT_REDIS_URL: '',
    INTRABOT_PORT: '0',
    INTRABOT_BOTS: '',
    ...extra,
  });
  const start = async (env: Record<string, string>): Promise<Runtime> => {
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env });
    await runtime.start();
    return runtime;
  };
  // spec: Bot management, "List bots": every bot user on the tenant
  const botUserNames = async (): Promise<string[]> => {
    const res = await fetch(`${sandbox.baseUrl}/api/open/v1/bots?per_page=100`, { headers: { authorization: `Bearer ${sandbox.token}` } });
    return ((await res.json()) as { data: { name: string }[] }).data.map((b) => b.name).sort();
  };

  it('deploys no example bot without INTRABOT_BOTS: no bot user, no route, no job, each named as skipped with the reason', async () => {
    const before = await botUserNames();
    const started = await start(connectedEnv());
    const seen = started.inspect();

    expect(seen.bots).toEqual([]);
    expect(seen.failures).toEqual([]);
    expect(seen.deployments).toEqual([]);
    expect(seen.skipped.map((s) => s.name).sort()).toEqual(EXAMPLES);
    for (const skipped of seen.skipped) expect(skipped.reason).toBe(`example bot, not enabled: set INTRABOT_BOTS=${skipped.name} to deploy it`);
    expect(await botUserNames()).toEqual(before);
    expect(await seen.jobs()).toEqual([]);
    for (const bot of EXAMPLES)
      expect((await fetch(`${seen.url}/hooks/default/${bot}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(
        404,
      );
    const alert = await fetch(`${seen.url}/alerts/alerts/alertmanager`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(alert.status).toBe(404);
    // and the start banner says so, bot by bot
    const banner = bannerText(bannerInput(seen.url!, started, undefined));
    expect(banner.split('\n')[0]).toBe(`intrabot runtime on ${seen.url}  (bots: none)`);
    for (const bot of EXAMPLES) expect(banner).toContain(`  skipped: ${bot}: example bot, not enabled: set INTRABOT_BOTS=${bot} to deploy it\n`);
  });

  it('says so in the log once at start, a line per skipped bot with the reason', async () => {
    const lines: { msg: string; bot?: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { msg: string; bot?: string });
        done();
      },
    });
    const app = Fastify({ logger: { ...(loggerOptions('info', false) as Record<string, unknown>), stream } });
    const env = connectedEnv();
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env, app });
    await app.ready();
    await runtime.activate();
    const skippedLines = lines.filter((l) => l.msg.startsWith('bot skipped: '));
    expect(skippedLines.map((l) => l.bot).sort()).toEqual(EXAMPLES);
    expect(skippedLines.find((l) => l.bot === 'ops')?.msg).toBe('bot skipped: ops: example bot, not enabled: set INTRABOT_BOTS=ops to deploy it');
    await runtime.close();
    runtime = undefined;
    await app.close();
  });

  it('deploys exactly the bots INTRABOT_BOTS names (birthday: one bot user, its job, the others skipped)', async () => {
    const before = await botUserNames();
    const started = await start(connectedEnv({ INTRABOT_BOTS: 'birthday' }));
    const seen = started.inspect();

    expect(seen.deployments).toEqual([{ tenant: 'default', bot: 'birthday' }]);
    expect(seen.skipped.map((s) => s.name).sort()).toEqual(EXAMPLES.filter((name) => name !== 'birthday'));
    expect(seen.skipped.find((s) => s.name === 'ops')?.reason).toBe('example bot, not enabled: add it to INTRABOT_BOTS (birthday) to deploy it');
    expect(await botUserNames()).toEqual([...before, 'Birthday Bot'].sort());
    expect((await seen.jobs()).map((j) => `${j.schedule.bot}/${j.schedule.job}`)).toEqual(['birthday/greet']);
  });

  it('retires what an example bot had on the tenant once it is no longer enabled', async () => {
    const before = await botUserNames();
    await (await start(connectedEnv({ INTRABOT_BOTS: 'birthday' }))).close();
    await start(connectedEnv());
    expect(await botUserNames()).toEqual([...before, `Birthday Bot${RETIRED_SUFFIX}`].sort());
  });

  it('refuses a name in INTRABOT_BOTS that is no bot, naming the setting and the bots there are, and provisions nothing', async () => {
    const before = await botUserNames();
    const env = connectedEnv({ INTRABOT_BOTS: 'birthday,birthdya' });
    const refused = buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env });
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toMatchObject({ key: 'INTRABOT_BOTS' });
    await expect(refused).rejects.toThrow(`INTRABOT_BOTS: no bot named "birthdya" (did you mean "birthday"?); the bots are: ${EXAMPLES.join(', ')}`);
    expect(await botUserNames()).toEqual(before);
  });

  it('is enabled by `bots:` in intrabot.yaml as well, and an unknown name there is named as the file key', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dataDir, 'intrabot.yaml'), 'bots: [ops, alert]\n');
    const env = connectedEnv();
    const refused = buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env });
    await expect(refused).rejects.toThrow(/^intrabot\.yaml: bots: no bot named "alert" \(did you mean "alerts"\?\)/);

    writeFileSync(join(dataDir, 'intrabot.yaml'), 'bots: [ops]\n');
    const started = await start(env);
    expect(started.inspect().deployments).toEqual([{ tenant: 'default', bot: 'ops' }]);
  });

  it('`intrabot run` of a skipped bot says why it is not deployed', async () => {
    const io = captureIo(connectedEnv({ INTRABOT_PORT: String(await freePort()) }));
    expect(await runRun(['birthday', 'greet'], io)).toBe(1);
    expect(io.err).toContain(
      'intrabot run: bot "birthday" is not deployed to tenant "default": example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it',
    );
  });

  it('`intrabot run` through a running runtime that skipped the bot says why, not that the job is unknown', async () => {
    const env = connectedEnv({ INTRABOT_ADMIN_TOKEN: 'example-bots-admin-token' });
    const started = await start(env);
    const io = captureIo({ ...env, INTRABOT_PORT: new URL(started.inspect().url!).port });
    expect(await runRun(['birthday', 'greet'], io)).toBe(1);
    expect(io.err).toBe(
      'intrabot run: bot "birthday" is not deployed to tenant "default": example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it\n',
    );
    expect(io.err).not.toContain('has no job');
  });

  it('the run route answers 404 unknown_bot naming why the bot is not deployed, or the bot a misspelt name is closest to', async () => {
    const started = await start(connectedEnv({ INTRABOT_ADMIN_TOKEN: 'example-bots-admin-token' }));
    const run = (bot: string) =>
      started.app.inject({ method: 'POST', url: `/_admin/jobs/default/${bot}/greet/run`, headers: { authorization: 'Bearer example-bots-admin-token' } });
    const skipped = await run('birthday');
    expect(skipped.statusCode).toBe(404);
    expect(skipped.json()).toMatchObject({
      error: 'unknown_bot',
      message: 'bot "birthday" is not deployed to tenant "default": example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it',
      details: { tenant: 'default', bot: 'birthday' },
    });
    const misspelt = await run('birthdya');
    expect(misspelt.statusCode).toBe(404);
    expect(misspelt.json()).toMatchObject({
      error: 'unknown_bot',
      message: 'no bot named "birthdya" (did you mean "birthday"?); no bot is deployed to tenant "default"',
    });
  });

  it('`provision --dry-run` lists the skipped bots with the reason, and refuses an unknown name', async () => {
    const env = connectedEnv({ INTRABOT_PUBLIC_URL: 'https://bots.example.com' });
    const io = captureIo(env);
    expect(await runProvision(['--dry-run'], io)).toBe(0);
    for (const bot of EXAMPLES) expect(io.out).toContain(`skipped ${bot}: example bot, not enabled: set INTRABOT_BOTS=${bot} to deploy it\n`);
    expect(io.out).toContain('dry run: nothing was changed');

    const wrong = captureIo({ ...env, INTRABOT_BOTS: 'nobody' });
    expect(await runProvision(['--dry-run'], wrong)).toBe(1);
    expect(wrong.err).toContain('intrabot provision: INTRABOT_BOTS: no bot named "nobody"');
  });
});
