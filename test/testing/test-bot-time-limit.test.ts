import { describe, expect, it } from 'vitest';
import { projectFiles } from '../../src/cli/init/project-files';
import { TimeLimitError } from '../../src/clock';
import { TEST_HANDLER_TIMEOUT_MS, testBot } from '../../src/testing';

const STUCK = 'test/fixtures/bots-testbot/stuck';
const post = {
  id: 5,
  wall_id: 1,
  wall_name: 'Company',
  body: 'anyone there?',
  author: { id: 12, name: 'Ada Lovelace', email: 'ada@example.test' },
  created_at: '2026-06-01T09:00:00Z',
  updated_at: '2026-06-01T09:00:00Z',
};

/** The `testTimeout` of the vitest config `intrabot init` scaffolds. */
function scaffoldTestTimeout(): number {
  const files = projectFiles({ name: 'x', intrabot: '^0.1.0', devDependencies: { typescript: '5', vitest: '3', '@types/node': '20' }, node: '>=20' });
  const found = /testTimeout: ([\d_]+)/.exec(files['vitest.config.ts'] ?? '');
  if (!found) throw new Error('the scaffolded vitest config sets no testTimeout');
  return Number(found[1]!.replaceAll('_', ''));
}

describe("testBot's handler time limit", () => {
  it("stays below the scaffold's test timeout, so a hung handler fails with intrabot's error, not the runner's", () => {
    expect(TEST_HANDLER_TIMEOUT_MS).toBe(10_000);
    expect(TEST_HANDLER_TIMEOUT_MS).toBeLessThan(scaffoldTestTimeout());
  });

  it('ends a hung handler in real time although the fake clock stands still, naming the bot and the handler', async () => {
    const bot = await testBot(STUCK, { handlerTimeoutMs: 50 });
    const run = bot.event('post.created', post);
    await expect(run).rejects.toBeInstanceOf(TimeLimitError);
    await expect(run).rejects.toThrow('stuck on.post.created ran past its time limit of 50 ms');
    expect(bot.logs.map((l) => l.message)).toEqual(['handler started']);
  });

  it('ends a hung handler at the default limit when the test moves the fake clock past it', async () => {
    const bot = await testBot(STUCK);
    let settled = false;
    const run = bot.event('post.created', post).finally(() => (settled = true));
    run.catch(() => undefined);
    await expect.poll(() => bot.logs.length).toBe(1);
    bot.clock.advance(TEST_HANDLER_TIMEOUT_MS - 1);
    await new Promise(setImmediate);
    expect(settled).toBe(false);
    bot.clock.advance(1);
    await expect(run).rejects.toThrow(`stuck on.post.created ran past its time limit of ${TEST_HANDLER_TIMEOUT_MS} ms`);
  });
});
