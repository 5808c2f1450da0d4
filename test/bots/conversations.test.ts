import { describe, expect, it } from 'vitest';
import { BotDefinitionError, choice, defineBot, freeText, yesNo, z } from '../../src';
import { parseAnswer } from '../../src/bots/conversations/answers';
import { testBot, type TestBot } from '../../src/testing';

// issue #16, item 1: conversations (docs/conversations.md)
const SURVEY = 'test/fixtures/bots-conversations/survey';
const ada = { id: 12, name: 'Ada Lovelace' };
const grace = { id: 13, name: 'Grace Hopper' };
const start = '2026-06-10T09:00:00Z';

function trailOf(bot: TestBot): string[] {
  return bot.logs.filter((line) => line.message.startsWith('trail ')).map((line) => line.message.slice('trail '.length));
}

describe('answers: how a step reads the text of a comment', () => {
  it('yesNo takes the usual words, any case, with trailing punctuation', () => {
    for (const word of ['yes', 'Y', 'OK', 'sure!', 'Confirm.', 'yep']) expect(yesNo().parse(word)).toEqual({ ok: true, value: true });
    for (const word of ['no', 'N', 'Cancel', 'nope!', 'stop']) expect(yesNo().parse(word)).toEqual({ ok: true, value: false });
    expect(yesNo().parse('perhaps')).toEqual({ ok: false, hint: 'Please answer yes or no.' });
  });

  it('choice takes an option in any case, its number in the list, or a start only one option has', () => {
    const office = choice(['Berlin', 'Lisbon', 'Austin']);
    expect(office.parse('lisbon')).toEqual({ ok: true, value: 'Lisbon' });
    expect(office.parse('3')).toEqual({ ok: true, value: 'Austin' });
    expect(office.parse('Ber')).toEqual({ ok: true, value: 'Berlin' });
    expect(office.parse('Paris')).toEqual({ ok: false, hint: 'Please answer with one of: Berlin, Lisbon, Austin.' });
    expect(choice(['Lisbon', 'Lima']).parse('Li')).toMatchObject({ ok: false });
    expect(() => choice([])).toThrow(/choice: give at least one option/);
  });

  it('freeText trims and keeps to its limits; a zod schema reads the trimmed text', () => {
    expect(freeText().parse('  fine  ')).toEqual({ ok: true, value: 'fine' });
    expect(freeText({ max: 3 }).parse('longer')).toEqual({ ok: false, hint: 'Please keep it to 3 characters.' });
    expect(parseAnswer(undefined, '   ')).toEqual({ ok: false, hint: 'Please write an answer.' });
    expect(parseAnswer(z.coerce.number().int(), ' 7 ')).toEqual({ ok: true, value: 7 });
    expect(parseAnswer(z.coerce.number().int(), 'seven')).toMatchObject({ ok: false, hint: expect.stringContaining('not an answer I can take') });
  });
});

describe('conversations through the fast door', () => {
  it('a step can ask again: the state goes on to the next step, and each answer runs its step once', async () => {
    const bot = await testBot(SURVEY, { now: start });
    expect(await bot.command('/visit', { user: ada, id: 7001 })).toEqual([{ kind: 'comment', postId: 7001, text: 'Which office? Berlin, Lisbon or Austin' }]);
    expect(await bot.comment('lisbon', { on: 7001, user: ada })).toEqual([{ kind: 'comment', postId: 7001, text: 'Why Lisbon?' }]);
    expect(await bot.waiting()).toMatchObject([{ step: 'reason', state: { office: 'Lisbon' } }]);
    expect(await bot.comment('the sea', { on: 7001, user: ada })).toEqual([{ kind: 'comment', postId: 7001, text: 'Lisbon, because: the sea' }]);
    expect(await bot.waiting()).toEqual([]);
  });

  it('a zod schema answer gives its parsed value to the step; an invalid one is asked again', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/count', { user: ada, id: 7002 });
    expect(await bot.comment('lots', { on: 7002, user: ada })).toEqual([
      { kind: 'comment', postId: 7002, text: expect.stringMatching(/^That is not an answer I can take: .*\n\nHow many people\?$/s) },
    ]);
    expect(await bot.comment('12', { on: 7002, user: ada })).toEqual([{ kind: 'comment', postId: 7002, text: 'Booking for 12.' }]);
  });

  it('a newer question to the same user on the same post replaces the older one', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7003 });
    await bot.comment('/count', { on: 7003, user: ada });
    expect(await bot.waiting()).toMatchObject([{ step: 'headcount', postId: 7003, userId: ada.id }]);
    expect(await bot.comment('4', { on: 7003, user: ada })).toEqual([{ kind: 'comment', postId: 7003, text: 'Booking for 4.' }]);
  });

  it('questions to different users on one post wait side by side; each user answers their own', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7004 });
    await bot.comment('/count', { on: 7004, user: grace });
    expect((await bot.waiting()).map((c) => [c.userId, c.step])).toEqual([
      [ada.id, 'office'],
      [grace.id, 'headcount'],
    ]);
    expect(await bot.comment('3', { on: 7004, user: grace })).toEqual([{ kind: 'comment', postId: 7004, text: 'Booking for 3.' }]);
    expect(await bot.comment('Austin', { on: 7004, user: ada })).toEqual([{ kind: 'comment', postId: 7004, text: 'Why Austin?' }]);
  });

  it('`from` names who answers: the author of the command is refused, the user named is heard', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command(`/ask-for ${grace.id}`, { user: ada, id: 7005 });
    expect(await bot.comment('because', { on: 7005, user: ada })).toEqual([
      { kind: 'comment', postId: 7005, text: 'Sorry, only the person I asked can answer that.' },
    ]);
    expect(await bot.comment('because', { on: 7005, user: grace })).toEqual([{ kind: 'comment', postId: 7005, text: 'Berlin, because: because' }]);
  });

  it('a comment of another user that would not answer is left to the bot’s other handlers', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7006 });
    expect(await bot.comment('nice weather', { on: 7006, user: grace })).toEqual([]);
    expect(bot.outcome).toEqual({ status: 'ignored', reason: 'no handler for comment.created' });
  });

  it('an answer on another post is not an answer', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7007 });
    expect(await bot.comment('Berlin', { on: 9999, user: ada })).toEqual([]);
    expect(await bot.waiting()).toHaveLength(1);
  });

  it('a step that throws fails the delivery and gives the question back, so the retried answer is heard', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/fragile', { user: ada, id: 7008 });
    await expect(bot.comment('boom', { on: 7008, user: ada })).rejects.toThrow('the step failed');
    expect(await bot.waiting()).toHaveLength(1);
    expect(await bot.comment('hello', { on: 7008, user: ada })).toEqual([{ kind: 'comment', postId: 7008, text: 'Heard: hello' }]);
  });

  it('times out on the fake clock, once, running the step’s timeout as the user asked', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7009 });
    expect(await bot.elapse(4 * 60_000)).toEqual([]);
    expect(await bot.elapse('1m')).toEqual([{ kind: 'comment', postId: 7009, text: 'No office chosen.' }]);
    expect(await bot.elapse('1h')).toEqual([]);
    expect(await bot.comment('Berlin', { on: 7009, user: ada })).toEqual([]);
  });

  it('a step without a timeout handler just stops waiting', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/count', { user: ada, id: 7010 });
    expect(await bot.elapse('2m')).toEqual([]);
    expect(await bot.waiting()).toEqual([]);
  });

  it('middleware sees the answer (step, parsed value, who) and the timeout', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/visit', { user: ada, id: 7011 });
    await bot.comment('austin', { on: 7011, user: ada });
    await bot.elapse('5m');
    expect(trailOf(bot)).toEqual(['command:/visit', 'answer:office:"Austin":Ada Lovelace', `timeout:reason:${ada.id}`]);
  });

  it('refuses a misused ask, naming the field: an unknown step, a state that is not JSON, a bad timeout, a job', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await expect(bot.command('/ask-unknown', { user: ada })).rejects.toThrow(
      /ask\.step: bot survey has no conversation step "nope" \(its steps are office, reason/,
    );
    await expect(bot.command('/ask-bad-state', { user: ada })).rejects.toThrow(/ask\.state: must be JSON/);
    await expect(bot.command('/ask-bad-timeout', { user: ada })).rejects.toThrow(/ask\.timeout/);
    await expect(bot.job('nudge')).rejects.toThrow(/ctx\.ask asks where an event or a command happened/);
    expect(await bot.waiting()).toEqual([]);
  });
});

describe('defineBot: conversations', () => {
  it('refuses a step whose answer is neither an answer nor a zod schema, naming it', () => {
    expect(() => defineBot({ conversations: { confirm: { answer: 'yes' as never, run: () => undefined } } })).toThrow(BotDefinitionError);
    expect(() => defineBot({ conversations: { confirm: { answer: 'yes' as never, run: () => undefined } } })).toThrow(/conversations\.confirm\.answer/);
  });

  it('refuses a step without run, and a bad step name', () => {
    expect(() => defineBot({ conversations: { confirm: {} as never } })).toThrow(/conversations\.confirm\.run/);
    expect(() => defineBot({ conversations: { 'Bad Name': { run: () => undefined } } })).toThrow(/conversations/);
  });
});
