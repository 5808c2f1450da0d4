import { readFileSync } from 'node:fs';
import { type ApiCall, type Sent, testBot } from 'intrabot/testing';
import { describe, expect, it } from 'vitest';

interface Fixture {
  groups: { id: number; name: string }[];
  members: { id: number; name: string; email: string; is_away: boolean }[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/engineering.json', import.meta.url), 'utf8')) as Fixture;

// Thursday, 3 December 2026, 09:30 in Berlin (the ask); the summary is at 11:00
const ASK = '2026-12-03T08:30:00Z';
const SUMMARY = '2026-12-03T10:00:00Z';
const ada = { id: 7, name: 'Ada Lovelace' };
const mira = { id: 10, name: 'Mira Patel' };
const ENGINEERING_WALL = 3;
const THREAD = 6001;
// Linus is away by config; Grace by the platform's is_away
const config = { absences: [{ user: 'linus@example.com', from: '2026-12-01', to: '2026-12-04' }] };

/** The text of a post, comment or DM sent. */
const textOf = (sent: Sent | undefined): string => (sent && 'text' in sent ? sent.text : '');

async function standup(options: { now?: string; config?: Record<string, unknown> } = {}) {
  const bot = await testBot(new URL('.', import.meta.url), {
    now: options.now ?? ASK,
    config: { ...config, ...options.config },
    walls: { Engineering: ENGINEERING_WALL },
    api: {
      'groups.list': fixture.groups,
      'users.list': ({ query }: ApiCall) => (Number(query.group_id) === 11 ? fixture.members : []),
    },
  });
  return bot;
}

async function asked() {
  const bot = await standup();
  await bot.job('ask');
  return bot;
}

/** Ada checks in under the day's post: /standup, then her three answers. */
async function checkIn(bot: Awaited<ReturnType<typeof standup>>, user: { id: number; name: string }, answers: string[]) {
  await bot.command('/standup', { user, commentOn: THREAD, wall: { id: ENGINEERING_WALL, name: 'Engineering' } });
  const sent = [];
  for (const answer of answers) sent.push(...(await bot.comment(answer, { on: THREAD, user })));
  return sent;
}

describe('standup: the morning ask', () => {
  it('posts the day once on the team wall and invites by DM each member who is not away', async () => {
    const bot = await standup();
    const sent = await bot.job('ask');
    expect(sent).toEqual([
      { kind: 'post', wall: ENGINEERING_WALL, text: expect.stringContaining('Stand-up, Thursday, 3 December 2026: write /standup under this post by 11:00') },
      { kind: 'dm', userId: 7, text: expect.stringMatching(/^Good morning, Ada Lovelace! .*Answers until 11:00\.$/) },
      { kind: 'dm', userId: 10, text: expect.stringContaining('Good morning, Mira Patel!') },
    ]);
  });

  it('asks nobody on a weekend', async () => {
    const bot = await standup({ now: '2026-12-05T08:30:00Z' });
    expect(await bot.job('ask')).toEqual([]);
    expect(bot.calls).toEqual([]);
  });

  it('asks nobody on a configured holiday', async () => {
    const bot = await standup({ config: { holidays: ['2026-12-03'] } });
    expect(await bot.job('ask')).toEqual([]);
  });

  it('asks for the day of the slot, not of the clock, when a run is caught up late', async () => {
    // the Friday slot run on Saturday morning is still Friday's stand-up
    const bot = await standup({ now: '2026-12-05T07:00:00Z' });
    const sent = await bot.job('ask', { slot: '2026-12-04T08:30:00Z' });
    expect(sent[0]).toMatchObject({ kind: 'post', text: expect.stringContaining('Friday, 4 December 2026') });
  });

  it('sends nothing new when the job runs again the same day (a retry, intrabot run)', async () => {
    const bot = await asked();
    expect(await bot.job('ask')).toEqual([]);
    expect(bot.logs).toContainEqual(expect.objectContaining({ message: 'stand-up for 2026-12-03 asked already; nothing new to send' }));
  });

  it('a rerun after a run that stopped half way sends only what is missing', async () => {
    const bot = await standup();
    // what a run that failed after the post and Ada's DM leaves behind
    await bot.store.set('day:2026-12-03', { date: '2026-12-03', state: 'failed', deadline: Date.parse(SUMMARY), asked: [], away: [] });
    await bot.store.set('thread:2026-12-03', true);
    await bot.store.set('asked:2026-12-03:7', true);
    expect(await bot.job('ask')).toEqual([{ kind: 'dm', userId: 10, text: expect.stringContaining('Mira Patel') }]);
    expect(await bot.store.get('day:2026-12-03')).toMatchObject({ state: 'open', asked: [ada, mira] });
  });

  it('names an unknown group in the error', async () => {
    const bot = await standup({ config: { group: 'Nope' } });
    await expect(bot.job('ask')).rejects.toThrow('no group named "Nope"');
  });
});

describe('standup: checking in', () => {
  it('/standup under the post asks yesterday, today and blockers in turn, there', async () => {
    const bot = await asked();
    const sent = await bot.command('/standup', { user: ada, commentOn: THREAD });
    expect(sent).toEqual([{ kind: 'comment', postId: THREAD, text: 'Ada Lovelace: What did you do yesterday?' }]);
    expect(await bot.comment('Reviewed the payments PR', { on: THREAD, user: ada })).toEqual([
      { kind: 'comment', postId: THREAD, text: 'Ada Lovelace: What will you do today?' },
    ]);
    expect(await bot.comment('Ship the release', { on: THREAD, user: ada })).toEqual([
      { kind: 'comment', postId: THREAD, text: 'Ada Lovelace: Anything blocking you? ("none" is an answer)' },
    ]);
    expect(await bot.comment('none', { on: THREAD, user: ada })).toEqual([
      { kind: 'comment', postId: THREAD, text: "Thanks, Ada Lovelace! You are in today's summary." },
    ]);
    expect(await bot.store.get('checkin:2026-12-03:7')).toEqual({
      user: ada,
      yesterday: 'Reviewed the payments PR',
      today: 'Ship the release',
      blockers: 'none',
    });
    expect(await bot.waiting()).toEqual([]);
  });

  it('two members check in under the same post side by side, each answering for themselves', async () => {
    const bot = await asked();
    await bot.command('/standup', { user: ada, commentOn: THREAD });
    await bot.command('/standup', { user: mira, commentOn: THREAD });
    await bot.comment('Mira did tests', { on: THREAD, user: mira });
    await bot.comment('Ada did docs', { on: THREAD, user: ada });
    expect(await bot.store.get('checkin:2026-12-03:7')).toEqual({ user: ada, yesterday: 'Ada did docs' });
    expect(await bot.store.get('checkin:2026-12-03:10')).toEqual({ user: mira, yesterday: 'Mira did tests' });
  });

  it('only members asked today can check in: the away and strangers are told so', async () => {
    const bot = await asked();
    expect(await bot.command('/standup', { user: { id: 9, name: 'Linus Torvalds' }, commentOn: THREAD })).toEqual([
      { kind: 'comment', postId: THREAD, text: "Linus Torvalds, you are not on today's stand-up list." },
    ]);
    expect(await bot.waiting()).toEqual([]);
  });

  it('says there is no stand-up on a day nobody was asked', async () => {
    const bot = await standup();
    expect(await bot.command('/standup', { user: ada })).toEqual([{ kind: 'comment', postId: 5001, text: 'There is no stand-up today.' }]);
  });

  it('a question not answered by the summary stops waiting, silently', async () => {
    const bot = await asked();
    await bot.command('/standup', { user: ada, commentOn: THREAD });
    expect(await bot.elapse('89m')).toEqual([]);
    expect(await bot.waiting()).toHaveLength(1);
    expect(await bot.elapse('1m')).toEqual([]);
    expect(await bot.waiting()).toEqual([]);
  });
});

describe('standup: the summary', () => {
  it('posts one summary with each check-in, who is blocked, who did not answer and who was away', async () => {
    const bot = await asked();
    await checkIn(bot, ada, ['Reviewed the payments PR', 'Ship the release', 'Waiting for @Grace on the keys']);
    bot.clock.set(Date.parse(SUMMARY));
    const sent = await bot.job('summary');
    expect(sent).toEqual([{ kind: 'post', wall: ENGINEERING_WALL, text: expect.any(String) }]);
    expect(textOf(sent[0])).toBe(
      [
        '📋 Stand-up summary, Thursday, 3 December 2026',
        '',
        'Ada Lovelace',
        '• Yesterday: Reviewed the payments PR',
        '• Today: Ship the release',
        '• Blockers: Waiting for ＠Grace on the keys',
        '',
        '🚧 Blocked: Ada Lovelace',
        '',
        'No answer: Mira Patel',
        '',
        'Away: Grace Hopper and Linus Torvalds',
      ].join('\n'),
    );
  });

  it('shows a check-in left half way with what was said', async () => {
    const bot = await asked();
    await checkIn(bot, mira, ['Fixed the flaky test']);
    bot.clock.set(Date.parse(SUMMARY));
    const [post] = await bot.job('summary');
    expect(textOf(post)).toContain('Mira Patel\n• Yesterday: Fixed the flaky test\n• Today: (no answer)\n• Blockers: (no answer)');
    expect(textOf(post)).toContain('No answer: Ada Lovelace');
  });

  it('says so when nobody checked in', async () => {
    const bot = await asked();
    const [post] = await bot.job('summary', { slot: SUMMARY });
    expect(textOf(post)).toContain('Nobody checked in today.');
    expect(textOf(post)).toContain('No answer: Ada Lovelace and Mira Patel');
  });

  it('posts the summary once a day, however often the job runs', async () => {
    const bot = await asked();
    expect(await bot.job('summary', { slot: SUMMARY })).toHaveLength(1);
    expect(await bot.job('summary', { slot: SUMMARY })).toEqual([]);
  });

  it('posts no summary on a day nobody was asked', async () => {
    const bot = await standup({ now: '2026-12-05T10:00:00Z' });
    expect(await bot.job('summary')).toEqual([]);
  });

  it('a /standup after the summary is refused; an answer finished after it is thanked but not added', async () => {
    const bot = await asked();
    await checkIn(bot, ada, ['Docs', 'Code']);
    await bot.job('summary', { slot: SUMMARY });
    expect(await bot.command('/standup', { user: mira, commentOn: THREAD })).toEqual([
      { kind: 'comment', postId: THREAD, text: "Today's stand-up summary is posted already; see you at the next one." },
    ]);
    expect(await bot.comment('none', { on: THREAD, user: ada })).toEqual([
      { kind: 'comment', postId: THREAD, text: "Thanks, Ada Lovelace. Today's summary was posted already, so this is not in it." },
    ]);
  });
});
