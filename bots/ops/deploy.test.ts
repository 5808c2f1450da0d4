import { describe, expect, it } from 'vitest';
import { testBot } from 'intrabot/testing';

const ada = { id: 7, name: 'Ada Lovelace', is_manager: false };
const grace = { id: 8, name: 'Grace Hopper', is_manager: false };
const start = '2026-06-10T09:00:00Z';

async function asked() {
  const bot = await testBot(new URL('.', import.meta.url), { now: start });
  const sent = await bot.command('/deploy api prod', { user: ada, id: 5001 });
  return { bot, sent };
}

describe('ops bot: /deploy asks the user who wrote it to confirm', () => {
  it('asks under the post and waits: nothing is deployed before the answer', async () => {
    const { bot, sent } = await asked();
    expect(sent).toEqual([{ kind: 'comment', postId: 5001, text: 'Deploy api to prod? Answer yes or no within 10 minutes.' }]);
    expect(await bot.store.get('deploy:api:prod')).toBeUndefined();
    expect(await bot.waiting()).toMatchObject([{ step: 'confirm-deploy', postId: 5001, userId: 7, state: { service: 'api', env: 'prod' } }]);
  });

  it('yes from the same user deploys, once, and the question stops waiting', async () => {
    const { bot } = await asked();
    const sent = await bot.comment('Yes!', { on: 5001, user: ada });
    expect(sent).toEqual([{ kind: 'comment', postId: 5001, text: '🚀 Deploying api to prod, as Ada Lovelace confirmed.' }]);
    expect(await bot.store.get('deploy:api:prod')).toEqual({ at: Date.parse(start), by: 'Ada Lovelace' });
    expect(await bot.waiting()).toEqual([]);
    // a second "yes" is an ordinary comment now: nothing to answer
    expect(await bot.comment('yes', { on: 5001, user: ada })).toEqual([]);
  });

  it('no cancels it', async () => {
    const { bot } = await asked();
    expect(await bot.comment('no', { on: 5001, user: ada })).toEqual([{ kind: 'comment', postId: 5001, text: 'Cancelled: api is not deployed to prod.' }]);
    expect(await bot.store.get('deploy:api:prod')).toBeUndefined();
  });

  it("refuses another user's answer, and keeps waiting for the one asked", async () => {
    const { bot } = await asked();
    expect(await bot.comment('yes', { on: 5001, user: grace })).toEqual([{ kind: 'comment', postId: 5001, text: 'Sorry, only Ada Lovelace can answer that.' }]);
    expect(await bot.store.get('deploy:api:prod')).toBeUndefined();
    expect(await bot.waiting()).toHaveLength(1);
  });

  it('asks again, politely, after an answer that is neither yes nor no', async () => {
    const { bot } = await asked();
    expect(await bot.comment('maybe later', { on: 5001, user: ada })).toEqual([
      { kind: 'comment', postId: 5001, text: 'Please answer yes or no.\n\nDeploy api to prod? Answer yes or no within 10 minutes.' },
    ]);
    expect(await bot.waiting()).toHaveLength(1);
    expect(await bot.comment('y', { on: 5001, user: ada })).toEqual([expect.objectContaining({ text: expect.stringContaining('Deploying api to prod') })]);
  });

  it('times out on the clock with a message, once, and a late yes deploys nothing', async () => {
    const { bot } = await asked();
    expect(await bot.elapse('9m')).toEqual([]);
    expect(await bot.elapse('1m')).toEqual([{ kind: 'comment', postId: 5001, text: 'No answer in 10 minutes: api is not deployed to prod.' }]);
    expect(await bot.elapse('1h')).toEqual([]);
    expect(await bot.comment('yes', { on: 5001, user: ada })).toEqual([]);
    expect(await bot.store.get('deploy:api:prod')).toBeUndefined();
  });

  it('a command in the thread is a command, not an answer: the question keeps waiting', async () => {
    const { bot } = await asked();
    expect(await bot.comment('/oncall', { on: 5001, user: ada })).toEqual([{ kind: 'comment', postId: 5001, text: 'On call: Ada Lovelace' }]);
    expect(await bot.waiting()).toHaveLength(1);
  });

  it('records the request and the decision in the audit log', async () => {
    const { bot } = await asked();
    await bot.comment('yes', { on: 5001, user: ada });
    expect(bot.audit.map((r) => ({ kind: r.kind, what: r.what, who: r.who?.name, did: r.did }))).toEqual([
      { kind: 'command', what: '/deploy', who: 'Ada Lovelace', did: ['comment to post 5001'] },
      { kind: 'answer', what: 'conversation confirm-deploy', who: 'Ada Lovelace', did: ['comment to post 5001'] },
    ]);
  });

  it('refuses unknown services and environments without asking', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: start });
    expect(await bot.command('/deploy nope prod', { user: ada })).toEqual([
      expect.objectContaining({ text: 'I know no service "nope" (I know api, web, database).' }),
    ]);
    expect(await bot.command('/deploy api moon', { user: ada })).toEqual([
      expect.objectContaining({ text: 'I know no environment "moon" (I know staging, prod).' }),
    ]);
    expect(await bot.waiting()).toEqual([]);
  });
});
