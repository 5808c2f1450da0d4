import { fileURLToPath } from 'node:url';
import { startPair, testBot, type Pair } from 'intrabot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// In process: the command runs against a context that records what it sends; no sandbox, no HTTP.
// Fast, so most of a bot's tests look like this one (`ctx.api` answers come from stubs: see testBot).
describe('greeter, in process', () => {
  it('answers /greeter with a greeting that names the author', async () => {
    const bot = await testBot(new URL('.', import.meta.url));
    const sent = await bot.command('/greeter', { user: { id: 7, name: 'Ada Lovelace' } });
    expect(sent).toEqual([{ kind: 'comment', postId: expect.any(Number), text: 'Hello, Ada Lovelace!' }]);
  });
});

// End to end: a sandbox and a runtime with this bot, over real HTTP, as in production.
describe('greeter, end to end', () => {
  let pair: Pair;

  beforeAll(async () => {
    // the folder holding this bot, wherever the repository is
    pair = await startPair({ bots: ['greeter'], botsDir: fileURLToPath(new URL('..', import.meta.url)) });
  });
  afterAll(async () => pair?.close());

  it('answers /greeter posted on the sandbox with a comment', async () => {
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/greeter' });
    const comments = await pair.platform.waitFor(() => pair.platform.commentsOn(post.id), (c) => c.length > 0);
    expect(comments[0]?.body).toMatch(/^Hello, \S.*!$/);
  });
});
