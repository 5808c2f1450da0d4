import { describe, expect, it } from 'vitest';
import { testBot, type ApiCall, type ApiStubs } from 'intrabot/testing';

// In process (no sandbox, no HTTP): the directory, the walls and the achievement are stubbed answers.
// kudos.test.ts proves the same bot end to end against the sandbox.

const ENGINEERING = { id: 21, name: 'Engineering', type: 'department' };
const SALES = { id: 22, name: 'Sales', type: 'department' };
const person = (id: number, name: string, groups: object[]) => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}${id}@example.test`,
  type: 'default',
  groups,
});
const ada = person(11, 'Ada Lovelace', [ENGINEERING]);
const adaInSales = person(12, 'Ada Lovelace', [SALES]);
const grace = person(13, 'Grace Hopper', [SALES]);
const teamPlayer = { id: 5, type: 'custom' as const, title: 'Team player', emoji: '🤝', is_published: true, visibility: 'public' as const };

/** The platform as the kudos bot reads it: a small directory, a wall per department, the achievement. */
function platform(written: string): ApiStubs {
  return {
    'users.list': [ada, adaInSales, grace],
    'walls.list': [
      { id: 31, groups: [ENGINEERING] },
      { id: 32, groups: [SALES] },
    ],
    'achievements.list': [teamPlayer],
    'achievements.get': teamPlayer,
    'posts.get': ({ params }: ApiCall) => ({ id: Number(params.id), created_at: written }),
    'achievements.award': ({ body }: ApiCall) => [{ id: 900, ...(body as { awards: object[] }).awards[0] }],
  };
}

// 23:50 in Berlin on June 1 is 21:50 UTC; the runtime handles the command after midnight
const WRITTEN = '2026-06-01T21:50:00Z';
const HANDLED = '2026-06-01T22:10:00Z';
const grace_writes = { user: { id: grace.id, name: grace.name } };

describe('/kudos, in process', () => {
  it('awards the achievement dated the day the command was written in the tenant zone, and posts the reason on the department wall', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: HANDLED, api: platform(WRITTEN) });
    const sent = await bot.command('/kudos Ada Lovelace (Engineering) for the keynote', grace_writes);
    expect(sent).toEqual([
      { kind: 'post', wall: 31, text: '🤝 Kudos to Ada Lovelace from Grace Hopper for the keynote!\nThey have been awarded "Team player".' },
      { kind: 'comment', postId: 5001, text: '🤝 Ada Lovelace received "Team player" and a post on their wall. Thank you!' },
    ]);
    const award = bot.calls.find((c) => c.endpoint === 'achievements.award');
    expect(award?.body).toEqual({ awards: [{ user_id: ada.id, awarded_at: '2026-06-01', department_id: ENGINEERING.id }] });
  });

  it('asks back, listing departments, when several people have the name', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { api: platform(WRITTEN) });
    const [answer] = await bot.command('/kudos Ada Lovelace for the keynote', grace_writes);
    expect(answer).toMatchObject({ kind: 'comment', text: expect.stringContaining('Several people are named Ada Lovelace') });
    expect(answer).toMatchObject({ text: expect.stringContaining('• Ada Lovelace, Sales (ada12@example.test)') });
    expect(bot.calls.some((c) => c.endpoint === 'achievements.award')).toBe(false);
  });

  it('answers that nobody has a name missing from the directory', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { api: platform(WRITTEN) });
    expect(await bot.command('/kudos Nobody Atall for trying', grace_writes)).toEqual([
      { kind: 'comment', postId: 5001, text: 'I found nobody named Nobody Atall in the directory.' },
    ]);
  });

  it('explains the usage when the reason is missing, without reading the directory', async () => {
    const bot = await testBot(new URL('.', import.meta.url));
    const [answer] = await bot.command('/kudos Ada Lovelace', grace_writes);
    expect(answer).toMatchObject({ text: expect.stringContaining('Usage: /kudos Full Name for the reason') });
    expect(bot.calls).toEqual([]);
  });

  it('refuses kudos to oneself', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { api: platform(WRITTEN) });
    expect(await bot.command('/kudos Grace Hopper for being me', grace_writes)).toEqual([
      { kind: 'comment', postId: 5001, text: 'Kudos are for colleagues: ask someone else to send yours. 😉' },
    ]);
  });
});

describe('achievement.awarded, in process', () => {
  const awarded = (visibility: 'public' | 'personal') => ({
    id: 700,
    awarded_at: '2026-06-01T00:00:00+02:00',
    department: ENGINEERING,
    user: { id: ada.id, name: ada.name },
    achievement: { ...teamPlayer, visibility },
  });

  it('congratulates the holder of a public achievement on their department wall', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { api: platform(WRITTEN) });
    expect(await bot.event('achievement.awarded', awarded('public'))).toEqual([
      { kind: 'post', wall: 31, text: '🤝 Congratulations, Ada Lovelace! You have been awarded "Team player".' },
    ]);
  });

  it('stays silent for a personal achievement (spec: Achievement, visibility)', async () => {
    const bot = await testBot(new URL('.', import.meta.url));
    expect(await bot.event('achievement.awarded', awarded('personal'))).toEqual([]);
  });
});
