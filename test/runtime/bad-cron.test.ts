import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBots } from '../../src/bots/registry';
import { startPair, testBot, type Pair } from '../../src/testing';

// issue #24: `cron: "0 9 * * MONDAY"` passed the manifest check (node-cron reads full names), then the
// scheduler (cron-parser, which does not) stopped the whole runtime with exit 1, naming no bot; testBot ran it.
const MONDAYS = `name: mondays
display_name: Mondays Bot
targets: { company: { wall: 1 } }
schedules:
  - job: digest
    cron: "0 9 * * MONDAY"
`;
const TICKER = `name: ticker
display_name: Ticker Bot
targets: { company: { wall: 1 } }
schedules: [{ job: tick, cron: "* * * * *" }]
`;
const moduleOf = (job: string) =>
  `import { defineBot } from '${resolve('src/index.ts')}';\nexport default defineBot({ jobs: { ${job}: async (ctx) => { await ctx.post('company', '${job} ran'); } } });\n`;

describe('a bot whose cron the scheduler cannot read', () => {
  const botsDir = mkdtempSync(join(tmpdir(), 'intrabot-bad-cron-'));
  const file = join(botsDir, 'mondays', 'bot.yaml');
  const expected = `${file}:6 schedules.0.cron: invalid cron expression "0 9 * * MONDAY": day of week "MONDAY" is not a name cron reads (did you mean "MON"?)`;
  let pair: Pair;

  beforeAll(async () => {
    for (const [name, manifest, job] of [
      ['mondays', MONDAYS, 'digest'],
      ['ticker', TICKER, 'tick'],
    ] as const) {
      mkdirSync(join(botsDir, name));
      writeFileSync(join(botsDir, name, 'bot.yaml'), manifest);
      writeFileSync(join(botsDir, name, 'index.ts'), moduleOf(job));
    }
    pair = await startPair({ botsDir });
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(botsDir, { recursive: true, force: true });
  });

  it('is a load error of that bot, naming its file, line and field and the name meant', async () => {
    const registry = await loadBots(botsDir, {});
    expect(registry.bots.map((bot) => bot.name)).toEqual(['ticker']);
    expect(registry.failures.map((failure) => failure.error.message)).toEqual([expected]);
  });

  it('leaves the runtime running the other bots, their cron jobs included', async () => {
    expect(pair.runtime.inspect().bots.map((bot) => bot.name)).toEqual(['ticker']);
    expect(pair.runtime.inspect().failures.map((failure) => failure.error.message)).toEqual([expected]);
    pair.clock.advance(61_000);
    const posts = await pair.platform.waitFor(
      async () => (await pair.platform.wallPosts(1)).map((post) => post.body),
      (bodies) => bodies.includes('tick ran'),
    );
    expect(posts).not.toContain('digest ran');
  });

  it('is refused by testBot with the same message', async () => {
    await expect(testBot(join(botsDir, 'mondays'), { env: {} })).rejects.toThrow(expected);
  });
});
