import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBots } from '../../src/bots/registry';
import { runNew } from '../../src/cli/commands/new';
import { startPair, testBot, type Pair } from '../../src/testing';
import { captureIo } from './cli-io';

describe('intrabot new', () => {
  let tmp: string;
  let botsDir: string;
  let pair: Pair | undefined;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-new-'));
    botsDir = join(tmp, 'bots');
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('scaffolds a manifest, a module, a template and a test, and says what to do next', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['standup-helper'], io)).toBe(0);
    for (const file of ['bot.yaml', 'index.ts', 'templates/hello.hbs', 'standup-helper.test.ts']) {
      expect(existsSync(join(botsDir, 'standup-helper', file)), file).toBe(true);
    }
    expect(io.out).toContain('created bots/standup-helper/');
    expect(io.out).toContain('npx vitest run bots/standup-helper');
    expect(io.out).toContain('then post "/standup-helper" on a wall');
    expect(readFileSync(join(botsDir, 'standup-helper', 'bot.yaml'), 'utf8')).toContain('display_name: Standup Helper Bot');
  });

  it('imports the framework by its package name only, never by a path into its sources', () => {
    const dir = join(botsDir, 'standup-helper');
    const specifiers = [readFileSync(join(dir, 'index.ts'), 'utf8'), readFileSync(join(dir, 'standup-helper.test.ts'), 'utf8')].flatMap((text) =>
      [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!),
    );
    expect(specifiers.sort()).toEqual(['intrabot', 'intrabot/testing', 'node:url', 'vitest']);
  });

  it('scaffolds a bot that loads and answers its own command, /standup-helper, on the sandbox, as its own test expects', async () => {
    const registry = await loadBots(botsDir, {});
    expect(registry.failures).toEqual([]);
    expect(registry.bots.map((b) => b.name)).toEqual(['standup-helper']);
    // the generated test's steps, run here
    pair = await startPair({ bots: ['standup-helper'], botsDir });
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/standup-helper' });
    const comments = await pair.platform.waitFor(
      () => pair!.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toMatch(/^Hello, \S.*!$/);
  });

  it('scaffolds a bot whose command the in-process door runs, as its own test expects', async () => {
    const bot = await testBot(join(botsDir, 'standup-helper'));
    expect(await bot.command('/standup-helper', { user: { id: 7, name: 'Ada Lovelace' } })).toEqual([
      { kind: 'comment', postId: 5001, text: 'Hello, Ada Lovelace!' },
    ]);
  });

  it("names each scaffolded bot's command after the bot, so init's hello bot and a new bot each answer only their own", async () => {
    // two bots side by side, as in a project made by init (bots/hello) after `intrabot new standup`
    const dir = join(tmp, 'two-bots');
    for (const name of ['hello', 'standup']) {
      expect(await runNew([name], captureIo({ INTRABOT_BOTS_DIR: dir }, tmp)), name).toBe(0);
    }
    const hello = await testBot(join(dir, 'hello'));
    const standup = await testBot(join(dir, 'standup'));
    const user = { user: { id: 7, name: 'Ada Lovelace' } };
    expect(await hello.command('/hello', user)).toEqual([{ kind: 'comment', postId: 5001, text: 'Hello, Ada Lovelace!' }]);
    expect(await standup.command('/standup', user)).toEqual([{ kind: 'comment', postId: 5001, text: 'Hello, Ada Lovelace!' }]);
    // the other's command is not theirs: a slash command close to none of a bot's is left alone
    expect(await standup.command('/hello', user)).toEqual([]);
    expect(await hello.command('/standup', user)).toEqual([]);
    expect(readFileSync(join(dir, 'standup', 'bot.yaml'), 'utf8')).toContain('answers /standup on the walls');
  });

  it('scaffolds a test that passes as it is, run by vitest itself', async () => {
    // inside the repository (in a dot folder, which the suite and the typecheck pass by), so the test's
    // imports of vitest and intrabot resolve as they do for a bot in bots/
    const repoTmp = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.tmp-new-'));
    try {
      const io = captureIo({ INTRABOT_BOTS_DIR: join(repoTmp, 'bots') }, repoTmp);
      expect(await runNew(['scaffolded'], io)).toBe(0);
      const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
      // the repository's own config would look for tests elsewhere: one that finds the bot's test, with
      // the repository's mapping of the package's names to its sources
      const config = join(repoTmp, 'vitest.config.mjs');
      const repoConfig = fileURLToPath(new URL('../../vitest.config.ts', import.meta.url));
      writeFileSync(
        config,
        `import { intrabotAliases } from ${JSON.stringify(repoConfig)};\nexport default { resolve: { alias: intrabotAliases }, test: { include: ['**/*.test.ts'] } };\n`,
      );
      const run = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--root', join(repoTmp, 'bots', 'scaffolded')], {
        encoding: 'utf8',
        env: { ...process.env, INTRABOT_REDIS_URL: '', CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
        timeout: 120_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+2 passed/);
    } finally {
      rmSync(repoTmp, { recursive: true, force: true });
    }
  }, 150_000);

  it('refuses an existing folder with exit code 2 and changes nothing', async () => {
    const before = readFileSync(join(botsDir, 'standup-helper', 'index.ts'), 'utf8');
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['standup-helper'], io)).toBe(2);
    expect(io.err).toContain('already exists');
    expect(readFileSync(join(botsDir, 'standup-helper', 'index.ts'), 'utf8')).toBe(before);
  });

  it('refuses a name that is not a slug, help (every bot answers /help), or a missing name, with exit code 2', async () => {
    for (const args of [['Standup'], ['9lives'], ['a b'], ['../escape'], ['help'], [], ['one', 'two']]) {
      const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
      expect(await runNew(args, io), args.join(' ')).toBe(2);
      expect(io.err).not.toBe('');
    }
    expect(existsSync(join(tmp, 'escape'))).toBe(false);
    expect(existsSync(join(botsDir, 'help'))).toBe(false);
  });
});
