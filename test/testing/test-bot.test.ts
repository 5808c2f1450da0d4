import { describe, expect, it } from 'vitest';
import { ApiNotFoundError, InvalidInputError } from '../../src';
import { apiError, testBot, UnstubbedCallError } from '../../src/testing';

const PROBE = 'test/fixtures/bots-testbot/probe';
// 23:30 UTC on June 1: already June 2 in Berlin
const LATE = Date.UTC(2026, 5, 1, 23, 30);
const ada = { id: 12, name: 'Ada Lovelace', email: 'ada@example.test' };

describe('testBot, the in-process door', () => {
  it('runs an event handler and answers what it sent, templates rendered, today in the tenant zone', async () => {
    const bot = await testBot(PROBE, { now: LATE, walls: { Engineering: 7 } });
    const sent = await bot.event('user.registered', ada);
    expect(sent).toEqual([
      { kind: 'post', wall: 7, text: 'Hello, Ada Lovelace! Today is 2026-06-02.' },
      { kind: 'dm', userId: 12, text: 'Welcome aboard, Ada Lovelace!' },
    ]);
    expect(bot.outcome).toEqual({ status: 'handled', what: 'on.user.registered' });
  });

  it("refuses what the runtime's outbox would refuse, naming the field", async () => {
    const bot = await testBot(PROBE);
    await expect(bot.command('/announce')).rejects.toThrow(/entry\.notification\.title/);
    expect(bot.sent).toEqual([]);
  });

  it('records a wall target the test gave no id for by its name', async () => {
    const bot = await testBot(PROBE, { now: LATE });
    expect((await bot.event('user.registered', ada))[0]).toMatchObject({ kind: 'post', wall: 'Engineering' });
  });

  it('validates the config from bot.yaml and the options with the bot schema, naming the field', async () => {
    expect((await testBot(PROBE, { config: { greeting: 'Hi' } })).config).toEqual({ greeting: 'Hi', limit: 3 });
    await expect(testBot(PROBE, { config: { limit: 0 } })).rejects.toThrow(/config\.limit/);
    await expect(testBot(PROBE, { config: { limit: 0 } })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('resolves ${env:...} in bot.yaml from the env it is given', async () => {
    const bot = await testBot(PROBE, { env: { PROBE_GREETING: 'Moin' } });
    expect(bot.config).toMatchObject({ greeting: 'Moin' });
  });

  it('refuses an event payload that does not match the event schema, naming the field, and runs nothing', async () => {
    const bot = await testBot(PROBE);
    await expect(bot.event('user.registered', { id: 12 } as never)).rejects.toThrow(/payload\.name/);
    expect(bot.sent).toEqual([]);
  });

  it('refuses an event the manifest does not subscribe to', async () => {
    const bot = await testBot(PROBE);
    await expect(bot.event('achievement.awarded', {} as never)).rejects.toThrow(/does not subscribe to achievement\.awarded/);
  });

  it('runs a command through the runtime dispatch and replies with a comment under the post', async () => {
    const bot = await testBot(PROBE, { api: { 'users.get': ({ params }: { params: { id: string } }) => ({ ...ada, id: Number(params.id) }) } });
    expect(await bot.command('/whois 12')).toEqual([{ kind: 'comment', postId: 5001, text: 'Ada Lovelace (ada@example.test)' }]);
    expect(bot.calls).toEqual([{ endpoint: 'users.get', method: 'GET', path: '/users/12', params: { id: '12' }, query: {}, body: undefined }]);
    expect(await bot.command('/whois 12', { commentOn: 80 })).toEqual([{ kind: 'comment', postId: 80, text: 'Ada Lovelace (ada@example.test)' }]);
  });

  it('answers help and unknown commands as the runtime does, and ignores what is not a command', async () => {
    const bot = await testBot(PROBE);
    expect((await bot.command('/help'))[0]).toMatchObject({ kind: 'comment', text: expect.stringContaining('/whois') });
    expect((await bot.command('@Probe Bot whoami'))[0]).toMatchObject({ text: expect.stringContaining("I don't know /whoami") });
    expect(await bot.command('just chatting')).toEqual([]);
    expect(bot.outcome).toMatchObject({ status: 'ignored' });
  });

  it('checks command permissions against the user the test gives', async () => {
    const bot = await testBot(PROBE);
    expect(await bot.command('/deploy', { user: { id: 3, name: 'Grace', is_manager: false, groups: [] } })).toEqual([
      { kind: 'comment', postId: 5001, text: 'Sorry, /deploy is only available to managers.' },
    ]);
    expect(await bot.command('/deploy', { user: { id: 4, name: 'Linus', is_manager: true } })).toEqual([{ kind: 'chat', target: 'room', text: 'deploying' }]);
  });

  it("ignores the bot's own posts (no reply loops)", async () => {
    const bot = await testBot(PROBE, { botUserId: 77 });
    expect(await bot.command('/count', { user: { id: 77, name: 'Probe Bot' } })).toEqual([]);
    expect(bot.outcome).toEqual({ status: 'ignored', reason: 'loop prevention: own_bot' });
  });

  it('keeps ctx.store across runs, with TTLs on the fake clock', async () => {
    const bot = await testBot(PROBE);
    await bot.command('/count');
    expect((await bot.command('/count'))[0]).toMatchObject({ text: 'count 2' });
    expect(await bot.store.get('count')).toBe(2);
    bot.clock.advance(60_000);
    expect((await bot.command('/count'))[0]).toMatchObject({ text: 'count 1' });
  });

  it('fails a run on a call no stub answers, naming it, even when the handler swallowed the error', async () => {
    const bot = await testBot(PROBE);
    const error = await bot.command('/swallow').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnstubbedCallError);
    expect(String((error as Error).message)).toContain("GET /walls/3 has no stub; answer it with api: { 'walls.get': ... }");
  });

  it('answers a stubbed failure with the error class of the real client', async () => {
    const bot = await testBot(PROBE, { api: { 'GET /users/{id}': apiError(404) } });
    await expect(bot.command('/whois 99')).rejects.toBeInstanceOf(ApiNotFoundError);
    bot.stub('GET /users/99', { ...ada, id: 99 });
    expect((await bot.command('/whois 99'))[0]).toMatchObject({ text: 'Ada Lovelace (ada@example.test)' });
  });

  it('runs a job for a slot, which may differ from now', async () => {
    const bot = await testBot(PROBE, { now: '2026-06-03T09:00:00Z' });
    expect(await bot.job('digest', { slot: LATE })).toEqual([{ kind: 'post', wall: 7, text: 'Digest for 2026-06-02 (now 2026-06-03T09:00:00.000Z)' }]);
    await expect(bot.job('nope')).rejects.toThrow(/has no job "nope"/);
  });

  it('delivers a report after checking its payload', async () => {
    const bot = await testBot(PROBE, { walls: { Engineering: 7 } });
    const report = { data: { total_lists: 2, total_tasks: 10, completed_tasks: 4, departments: [] } };
    expect(await bot.report('todoliststats.daily', report)).toEqual([{ kind: 'post', wall: 7, text: '4 of 10 tasks done' }]);
    await expect(bot.report('todoliststats.daily', { data: {} } as never)).rejects.toThrow(/payload\.data\.total_lists/);
  });
});

describe('a bot that starts spans of its own (ctx.traceContext)', () => {
  it('runs the same with tracing off, where it is given no trace context', async () => {
    const bot = await testBot('test/fixtures/bots-tracing/scorer');
    const post = {
      id: 5,
      wall_id: 1,
      wall_name: 'Company',
      body: 'tracing is off here',
      author: ada,
      created_at: '2026-06-01T09:00:00Z',
      updated_at: '2026-06-01T09:00:00Z',
    };
    expect(await bot.event('post.created', post)).toEqual([{ kind: 'comment', postId: 5, text: 'score: 9' }]);
  });
});
