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
    expect(freeText({ max: 3 }).parse('longer')).toEqual({ ok: false, hint: 'Please keep it to 3 characters (yours has 6).' });
    expect(freeText({ min: 10 }).parse('short')).toEqual({ ok: false, hint: 'Please write at least 10 characters.' });
    expect(parseAnswer(undefined, '   ')).toEqual({ ok: false, hint: 'Please write an answer.' });
    expect(parseAnswer(z.coerce.number().int(), ' 7 ')).toEqual({ ok: true, value: 7 });
  });

  // issue #24: a re-ask said zod's "Invalid input: expected number, received NaN" to employees
  it('a zod schema refusing an answer says what it takes, in words, never zod’s message', () => {
    const hints: Array<[z.ZodType, string, string]> = [
      [z.coerce.number().int(), 'seven', 'Please answer with a whole number.'],
      [z.coerce.number().int().min(1).max(5), '9', 'Please answer with a whole number from 1 to 5.'],
      [z.coerce.number().positive(), '-1', 'Please answer with a number above 0.'],
      [z.enum(['small', 'large']), 'huge', 'Please answer with one of: small, large.'],
      [z.email(), 'ada', 'Please answer with an email address.'],
      [z.iso.date(), 'tomorrow', 'Please answer with a date such as 2026-12-31.'],
      [z.string().min(3).max(8), 'ab', 'Please answer with a text of 3 to 8 characters.'],
      [z.union([z.literal('none'), z.coerce.number().int()]), 'some', 'Please answer with "none" or a whole number.'],
      [
        z
          .string()
          .regex(/^T-\d+$/)
          .describe('a ticket such as T-12'),
        'x',
        'Please answer with a ticket such as T-12.',
      ],
      [z.string().regex(/^T-\d+$/), 'x', 'Sorry, I cannot take that as an answer. Please try again.'],
    ];
    for (const [schema, text, hint] of hints) expect(parseAnswer(schema, text)).toEqual({ ok: false, hint });
    for (const [schema, text] of hints) expect((parseAnswer(schema, text) as { hint: string }).hint).not.toMatch(/Invalid|expected|received|NaN/);
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
      { kind: 'comment', postId: 7002, text: 'Please answer with a whole number from 1 to 50.\n\nHow many people?' },
    ]);
    expect(await bot.comment('12', { on: 7002, user: ada })).toEqual([{ kind: 'comment', postId: 7002, text: 'Booking for 12.' }]);
  });

  it('asks again in words that say what is expected: yes or no, the choices, the length', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/agree', { user: ada, id: 7010 });
    expect(await bot.comment('maybe', { on: 7010, user: ada })).toEqual([
      { kind: 'comment', postId: 7010, text: 'Please answer yes or no.\n\nBook the big room?' },
    ]);
    await bot.command('/visit', { user: ada, id: 7011 });
    expect(await bot.comment('Paris', { on: 7011, user: ada })).toEqual([
      { kind: 'comment', postId: 7011, text: 'Please answer with one of: Berlin, Lisbon, Austin.\n\nWhich office? Berlin, Lisbon or Austin' },
    ]);
    await bot.comment('Lisbon', { on: 7011, user: ada });
    const long = 'because the sea is right there, and the light, and the food';
    expect(await bot.comment(long, { on: 7011, user: ada })).toEqual([
      { kind: 'comment', postId: 7011, text: `Please keep it to 40 characters (yours has ${long.length}).\n\nWhy Lisbon?` },
    ]);
  });

  it('asks again in the step’s own words (`retry`), and with a plain sentence when the schema cannot be put in words', async () => {
    const bot = await testBot(SURVEY, { now: start });
    await bot.command('/ticket', { user: ada, id: 7012 });
    expect(await bot.comment('the printer one', { on: 7012, user: ada })).toEqual([
      { kind: 'comment', postId: 7012, text: 'Please give the ticket number, such as 4711.\n\nWhich ticket?' },
    ]);
    expect(await bot.comment('4711', { on: 7012, user: ada })).toEqual([{ kind: 'comment', postId: 7012, text: 'Ticket 4711.' }]);
    await bot.command('/code', { user: ada, id: 7013 });
    expect(await bot.comment('1234', { on: 7013, user: ada })).toEqual([
      { kind: 'comment', postId: 7013, text: 'Sorry, I cannot take that as an answer. Please try again.\n\nThe room code?' },
    ]);
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

  it('refuses an empty retry, naming it', () => {
    expect(() => defineBot({ conversations: { confirm: { answer: yesNo(), retry: ' ', run: () => undefined } } })).toThrow(/conversations\.confirm\.retry/);
  });

  it('refuses a step without run, and a bad step name', () => {
    expect(() => defineBot({ conversations: { confirm: {} as never } })).toThrow(/conversations\.confirm\.run/);
    expect(() => defineBot({ conversations: { 'Bad Name': { run: () => undefined } } })).toThrow(/conversations/);
  });
});
