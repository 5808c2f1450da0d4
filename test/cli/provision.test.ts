import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNew } from '../../src/cli/commands/new';
import { runProvision } from '../../src/cli/commands/provision';
import { startPair, type Pair } from '../../src/testing';
import { captureIo, FIXTURE_BOTS, freePort, pairEnv } from './cli-io';

describe('intrabot provision', () => {
  let pair: Pair;
  let tmp: string;
  let otherBots: string;
  const webhooks = async () =>
    (await pair.platform.request<{ data: { name: string; url: string; is_active?: boolean }[] }>('GET', '/api/open/v1/webhooks')).data;

  beforeAll(async () => {
    pair = await startPair({ bots: ['chores'], botsDir: FIXTURE_BOTS });
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-provision-'));
    otherBots = join(tmp, 'bots');
    expect(await runNew(['greeter'], captureIo({ INTRABOT_BOTS_DIR: otherBots }, tmp))).toBe(0);
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints the plan of a dry run and changes nothing on the platform', async () => {
    const before = await webhooks();
    // a bots folder with `greeter` and not `chores`: greeter would be created, chores retired
    const io = captureIo(pairEnv(pair, otherBots));
    expect(await runProvision(['--dry-run'], io)).toBe(0);
    expect(io.out).toMatch(/tenant sandbox: \d+ change\(s\)/);
    expect(io.out).toMatch(/create\s+bot_user\s+greeter/);
    expect(io.out).toMatch(/create\s+webhook\s+greeter/);
    expect(io.out).toMatch(/revoke\s+webhook\s+chores/);
    expect(io.out).toContain('dry run: nothing was changed');
    expect(await webhooks()).toEqual(before);
  });

  it('says a second run has nothing to change (idempotent) and exits 0', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runProvision([], io)).toBe(0);
    expect(io.out).toContain('tenant sandbox: nothing to change');
    expect(io.out).toContain('already up to date');
  });

  it('shows its progress tenant by tenant (a plain line each when not on a terminal)', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runProvision([], io)).toBe(0);
    expect(io.out).toMatch(/provisioning \d+ bot\(s\) on 1 tenant\(s\)\.\.\.\n {2}tenant sandbox \(1 of 1\)\n/);
  });

  it('prints the results as JSON with --json', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runProvision(['--dry-run', '--json'], io)).toBe(0);
    const results = JSON.parse(io.out) as { tenant: string; bots: Record<string, { enabled: boolean }> }[];
    expect(results[0]).toMatchObject({ tenant: 'sandbox', bots: { chores: { enabled: true } } });
  });

  it('applies nothing while a bot fails to load, since it would look removed and be retired', async () => {
    const bots = join(tmp, 'with-broken');
    expect(await runNew(['chores'], captureIo({ INTRABOT_BOTS_DIR: bots }, tmp))).toBe(0);
    mkdirSync(join(bots, 'broken'));
    writeFileSync(join(bots, 'broken', 'bot.yaml'), 'name: broken\ndisplay_name: Broken\nevents: [post.exploded]\n');
    const before = await webhooks();
    const io = captureIo(pairEnv(pair, bots));
    expect(await runProvision([], io)).toBe(1);
    expect(io.err).toContain('bot not loaded');
    expect(io.err).toContain('nothing applied');
    expect(await webhooks()).toEqual(before);
  });

  // issue #15, item 4: the runtime logged each bot-load error and the command printed it again
  it('prints each bot-load error once, also with the runtime logging at its default level', async () => {
    const bots = join(tmp, 'with-typo');
    expect(await runNew(['chores'], captureIo({ INTRABOT_BOTS_DIR: bots }, tmp))).toBe(0);
    mkdirSync(join(bots, 'typo'));
    writeFileSync(join(bots, 'typo', 'bot.yaml'), 'name: typo\ndisplay_name: Typo\nreplly_to_bots: true\n');
    const { INTRABOT_LOG_LEVEL: _quiet, ...env } = pairEnv(pair, bots);
    // a process of its own (the runtime's logger writes to the real stdout); asynchronously, as the sandbox runs in this one
    const child = await promisify(execFile)(process.execPath, ['bin/intrabot.mjs', 'provision', '--dry-run'], {
      env: { PATH: process.env.PATH, ...env },
      timeout: 60_000,
    }).then(
      (done) => ({ ...done, status: 0 }),
      (failed: { stdout: string; stderr: string; code: number }) => ({ ...failed, status: failed.code }),
    );
    const output = `${child.stdout}${child.stderr}`;
    expect(output).toContain('replly_to_bots: unknown field "replly_to_bots" (did you mean "react_to_bots"?)');
    expect(output.split('did you mean').length - 1).toBe(1);
    expect(child.status).toBe(1);
  });

  it('exits 1 when a target names a wall the tenant does not have, naming it (dry run or not)', async () => {
    const bots = join(tmp, 'with-missing-wall');
    expect(await runNew(['chores'], captureIo({ INTRABOT_BOTS_DIR: bots }, tmp))).toBe(0);
    const manifest = join(bots, 'chores', 'bot.yaml');
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}\ntargets:\n  team: { wall: Nowhere Wall }\n`);
    for (const args of [['--dry-run'], []]) {
      const io = captureIo(pairEnv(pair, bots));
      expect(await runProvision(args, io)).toBe(1);
      expect(io.err).toContain('1 target(s) name a wall the tenant does not have: chores/team (no wall named "Nowhere Wall", tenant sandbox)');
    }
  });

  it('exits 1 with the fix when no sandbox is running in sandbox mode', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS, { INTRABOT_SANDBOX_PORT: String(await freePort()) }));
    expect(await runProvision(['--dry-run'], io)).toBe(1);
    expect(io.err).toContain('no sandbox is running');
    expect(io.err).toContain('`npm start` or `intrabot sandbox`');
  });

  it('exits 2 on an unknown flag', async () => {
    expect(await runProvision(['--force'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
  });
});
