import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../../src/testing';
import { freePort } from '../helpers/free-port';

const ROOT = resolve('.');
const PROBE = resolve('test/fixtures/bots-built/probe/index.ts');

/** Runs an ES module script with plain node (no TypeScript loader), as a user's `intrabot` runs. */
function runScript(source: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `intrabot` runs from a build of src/ (bin/build.mjs) with bots compiled as they load
 * (src/bots/bot-bundler.ts), not through a TypeScript loader: what users run, tested as they run it.
 */
describe('the built CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-built-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('builds each version of the sources once and finds it again', () => {
    const run = runScript("import { ensureBuild } from './bin/build.mjs'; console.log(await ensureBuild()); console.log(await ensureBuild());");
    expect(run.stderr).toBe('');
    const [first, second] = run.stdout.trim().split('\n');
    expect(second).toBe(first);
    for (const file of ['.complete', 'cli/main.js', 'index.js', 'bots/bot-bundler.js']) expect(existsSync(join(first!, file)), file).toBe(true);
  });

  it("compiles a bot against the runtime's own framework modules (intrabot, intrabot/helpers, a path into src/), bundling the bot's files and keeping import.meta.url", () => {
    const run = runScript(`
      import { ensureBuild } from './bin/build.mjs';
      const build = await ensureBuild();
      const { bundleBot, stopBundler } = await import(build + '/bots/bot-bundler.js');
      const bot = await import(await bundleBot('probe', ${JSON.stringify(PROBE)}));
      const errors = await import(build + '/api/errors.js');
      const helpers = await import(build + '/bots/helpers/celebrations.js');
      await stopBundler();
      console.log(JSON.stringify({
        sameClass: bot.frameworkError === errors.ApiForbiddenError,
        sameClassBySourcePath: bot.frameworkErrorBySourcePath === errors.ApiForbiddenError,
        sameHelper: bot.helper === helpers.localDate,
        greeting: bot.greeting,
        kind: bot.default.kind,
      }));
    `);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      sameClass: true,
      sameClassBySourcePath: true,
      sameHelper: true,
      greeting: 'HELLO FROM BESIDE THE BOT!',
      kind: 'intrabot.bot',
    });
  });

  it('starts with every example bot from bin/intrabot.mjs, answers every curl its banner suggests, and stops cleanly on SIGTERM', async () => {
    const [port, sandboxPort] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      INTRABOT_PORT: String(port),
      INTRABOT_SANDBOX_PORT: String(sandboxPort),
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_REDIS_URL: '',
      INTRABOT_BASE_URL: '',
      INTRABOT_TOKEN: '',
      INTRABOT_LOG_LEVEL: 'warn',
    };
    const child = spawn(process.execPath, ['bin/intrabot.mjs', 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      let ready: { ok: boolean; bots: number } | undefined;
      for (let i = 0; i < 300 && !ready?.ok; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.json() as Promise<{ ok: boolean; bots: number }>,
          () => undefined,
        );
        if (!ready?.ok) await new Promise((r) => setTimeout(r, 100));
      }
      const exampleBots = readdirSync('bots', { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join('bots', d.name, 'bot.yaml')));
      expect(ready, output).toEqual({ ok: true, bots: exampleBots.length });
      expect(output).not.toContain('not loaded');
      // every curl the banner suggests works as printed (run from the repository, as a newcomer would)
      const tries = output.split('\n').filter((line) => line.startsWith('  curl '));
      expect(tries.length, output).toBeGreaterThanOrEqual(4);
      for (const line of tries) {
        const answer = execFileSync('bash', ['-c', `${line.trim()} -w '\\n%{http_code}'`], { cwd: ROOT, encoding: 'utf8' });
        expect(Number(answer.trim().split('\n').at(-1)), line).toBeGreaterThanOrEqual(200);
        expect(Number(answer.trim().split('\n').at(-1)), line).toBeLessThan(300);
      }
      // and the first one, an employee's /oncall, is answered by the ops bot
      const posted = JSON.parse(execFileSync('bash', ['-c', tries[0]!.trim()], { cwd: ROOT, encoding: 'utf8' })) as { data: { id: number } };
      const platform = new SandboxControl(`http://127.0.0.1:${sandboxPort}`);
      const comments = await platform.waitFor(
        () => platform.commentsOn(posted.data.id),
        (c) => c.length > 0,
        10_000,
      );
      expect(String(comments[0]?.body)).toMatch(/^On call: /);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
  });
});
