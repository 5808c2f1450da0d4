// `intrabot bots pause|resume|paused` (issue #17): through the running runtime's admin routes.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBots } from '../../src/cli/commands/bots';
import { startPair, type Pair } from '../../src/testing';
import { freePort } from '../helpers/free-port';
import { captureIo, pairEnv } from './cli-io';

const BOTS = resolve('test/fixtures/pause-bots');

describe('intrabot bots', () => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await startPair({ botsDir: BOTS });
  });
  afterAll(async () => {
    await pair?.close();
  });

  const io = () => captureIo(pairEnv(pair, BOTS));

  it('pauses a bot with its reason, lists it, and resumes it', async () => {
    const paused = io();
    expect(await runBots(['pause', 'pausable', '--reason', 'answers twice'], paused)).toBe(0);
    expect(paused.out).toContain('paused pausable (tenant sandbox)');
    const listed = io();
    expect(await runBots(['paused'], listed)).toBe(0);
    expect(listed.out).toMatch(/sandbox\s+pausable\s+\S+\s+answers twice/);
    const json = io();
    expect(await runBots(['paused', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toEqual([expect.objectContaining({ tenant: 'sandbox', bot: 'pausable', reason: 'answers twice' })]);
    const resumed = io();
    expect(await runBots(['resume', 'pausable', '--tenant', 'sandbox'], resumed)).toBe(0);
    expect(resumed.out).toContain('resumed pausable (tenant sandbox): 0 held deliveries handed back in order');
    const empty = io();
    expect(await runBots(['paused'], empty)).toBe(0);
    expect(empty.out).toBe('No bot is paused.\n');
  });

  it('names the bot it does not know, with a did-you-mean, and exits 1', async () => {
    const typo = io();
    expect(await runBots(['pause', 'pausabel'], typo)).toBe(1);
    expect(typo.err).toContain('no bot "pausabel" is deployed here (did you mean "pausable"?)');
    const tenant = io();
    expect(await runBots(['pause', 'pausable', '--tenant', 'elsewhere'], tenant)).toBe(1);
    expect(tenant.err).toContain('not deployed to tenant "elsewhere"');
  });

  it('refuses flags that do not go with the verb, as a usage error', async () => {
    const wrong = io();
    expect(await runBots(['pause', 'pausable', '--discard'], wrong)).toBe(2);
    expect(wrong.err).toContain('--discard goes with resume');
    const missing = io();
    expect(await runBots(['resume'], missing)).toBe(2);
    expect(missing.err).toContain("resume needs the bot's name");
  });

  it('says no runtime is up instead of failing obscurely', async () => {
    const offline = captureIo(pairEnv(pair, BOTS, { INTRABOT_PORT: String(await freePort()) }));
    expect(await runBots(['pause', 'pausable'], offline)).toBe(1);
    expect(offline.err).toContain('no runtime is up');
  });
});
