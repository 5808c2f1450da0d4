import { readFileSync } from 'node:fs';
import { type ApiCall, type Sent, testBot } from 'intrabot/testing';
import { describe, expect, it } from 'vitest';
import { makePairs } from './make-pairs';

interface Fixture {
  groups: { id: number; name: string }[];
  members: { id: number; name: string; is_away: boolean }[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/team.json', import.meta.url), 'utf8')) as Fixture;

// Monday 7 December 2026, 09:00 in Berlin
const MONDAY = '2026-12-07T08:00:00Z';
const NEXT_MONDAY = '2026-12-14T08:00:00Z';
const nameOf = (id: number) => fixture.members.find((m) => m.id === id)?.name ?? `#${id}`;

async function pairing(options: { config?: Record<string, unknown>; members?: Fixture['members'] } = {}) {
  const members = options.members ?? fixture.members;
  return testBot(new URL('.', import.meta.url), {
    now: MONDAY,
    config: { seed: '', ...options.config },
    api: {
      'groups.list': fixture.groups,
      'users.list': ({ query }: ApiCall) => (Number(query.group_id) === 11 ? members : []),
    },
  });
}

/** The direct messages to users, as [to, text]. */
function dms(sent: Sent[]): [number, string][] {
  return sent.flatMap((s): [number, string][] => (s.kind === 'dm' && 'userId' in s ? [[s.userId, s.text]] : []));
}

/** Each DM as [to, the names it gives], sorted by recipient. */
function told(sent: Sent[]): [number, string][] {
  return dms(sent)
    .map(([to, text]): [number, string] => [to, /you meet (.+?)( \(a group of three\))?\. /.exec(text)?.[1] ?? ''])
    .sort((a, b) => a[0] - b[0]);
}

/** The pairs of a round as sorted id lists, read back from the DMs. */
function groupsOf(sent: Sent[]): number[][] {
  const byName = new Map(fixture.members.map((m) => [m.name, m.id]));
  const groups = told(sent).map(([to, names]) => [to, ...names.split(/, | and /).map((n) => byName.get(n) ?? -1)].sort((a, b) => a - b));
  return [...new Map(groups.map((g) => [g.join(','), g])).values()].sort((a, b) => a[0]! - b[0]!);
}

describe('pairing: the weekly round', () => {
  it("pairs the group's members who are not away, from the seed of the round's date, telling each whom they meet", async () => {
    const bot = await pairing();
    const sent = await bot.job('pair');
    // the seed is the date: the round is known ahead, and so is what each DM says
    expect(groupsOf(sent)).toEqual([
      [1, 2],
      [3, 6],
      [4, 5],
    ]);
    expect(groupsOf(sent)).toEqual(makePairs([1, 2, 3, 4, 5, 6], [], '2026-12-07'));
    expect(sent).toContainEqual({
      kind: 'dm',
      userId: 1,
      text: '☕ Coffee round of 7 December 2026: this week you meet Grace Hopper. Find half an hour for a coffee, in person or on a call. Enjoy, Ada Lovelace!',
    });
    expect(told(sent).map(([to]) => to)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a configured seed changes the draw', async () => {
    const bot = await pairing({ config: { seed: 'secret' } });
    expect(groupsOf(await bot.job('pair'))).toEqual(makePairs([1, 2, 3, 4, 5, 6], [], 'secret:2026-12-07'));
  });

  it('an odd count gives one group of three, each of them told both others', async () => {
    const bot = await pairing({ members: fixture.members.filter((m) => m.id !== 6) });
    const sent = await bot.job('pair');
    const groups = groupsOf(sent);
    expect(groups.map((g) => g.length).sort()).toEqual([2, 3]);
    const trio = groups.find((g) => g.length === 3)!;
    for (const id of trio) {
      const dm = dms(sent).find(([to]) => to === id);
      expect(dm?.[1]).toContain(`${nameOf(trio.filter((x) => x !== id)[0]!)} and ${nameOf(trio.filter((x) => x !== id)[1]!)} (a group of three)`);
    }
  });

  it('avoids the pairs of the last rounds the next week', async () => {
    const bot = await pairing();
    const first = groupsOf(await bot.job('pair'));
    bot.clock.set(Date.parse(NEXT_MONDAY));
    const second = groupsOf(await bot.job('pair'));
    const key = (g: number[]) => g.join(',');
    expect(second.filter((g) => first.map(key).includes(key(g)))).toEqual([]);
    expect(await bot.store.get('history')).toEqual([
      { date: '2026-12-07', groups: first },
      { date: '2026-12-14', groups: second },
    ]);
  });

  it('keeps only the rounds it avoids in its history', async () => {
    const bot = await pairing({ config: { avoid_rounds: 1 } });
    await bot.job('pair');
    await bot.job('pair', { slot: NEXT_MONDAY });
    expect(((await bot.store.get<{ date: string }[]>('history')) ?? []).map((r) => r.date)).toEqual(['2026-12-14']);
  });

  it('tells nobody again when the job runs again the same day', async () => {
    const bot = await pairing();
    await bot.job('pair');
    expect(await bot.job('pair')).toEqual([]);
    expect(bot.logs).toContainEqual(expect.objectContaining({ message: 'round of 2026-12-07 drawn and told already; nothing new to send' }));
  });

  it('a rerun after a run that stopped half way tells the same pairs, to those not told yet', async () => {
    const bot = await pairing();
    const drawn = {
      date: '2026-12-07',
      state: 'drawn',
      groups: [
        [
          { id: 1, name: 'Ada Lovelace' },
          { id: 2, name: 'Grace Hopper' },
        ],
        [
          { id: 3, name: 'Linus Torvalds' },
          { id: 4, name: 'Mira Patel' },
        ],
      ],
    };
    await bot.store.set('round:2026-12-07', drawn);
    await bot.store.set('told:2026-12-07:1', true);
    await bot.store.set('told:2026-12-07:2', true);
    const sent = await bot.job('pair');
    expect(told(sent)).toEqual([
      [3, 'Mira Patel'],
      [4, 'Linus Torvalds'],
    ]);
    expect(bot.calls).toEqual([]);
  });

  it('makes no round of fewer than two people', async () => {
    const bot = await pairing({ members: [fixture.members[0]!] });
    expect(await bot.job('pair')).toEqual([]);
    expect(await bot.store.get('history')).toBeUndefined();
  });

  it('names an unknown group in the error', async () => {
    const bot = await pairing({ config: { group: 'Nope' } });
    await expect(bot.job('pair')).rejects.toThrow('no group named "Nope"');
  });
});

describe('pairing: /pairing join and leave', () => {
  const grace = { id: 2, name: 'Grace Hopper' };
  const outsider = { id: 42, name: 'Hedy Lamarr' };

  it('a member who left is not paired; one who joined from outside the group is', async () => {
    const bot = await pairing();
    expect(await bot.command('/pairing leave', { user: grace })).toEqual([
      { kind: 'comment', postId: 5001, text: 'You are out of the coffee rounds, Grace Hopper. Write /pairing join to come back.' },
    ]);
    expect(await bot.command('/pairing join', { user: outsider })).toEqual([
      { kind: 'comment', postId: 5002, text: '☕ You are in, Hedy Lamarr: the next coffee round pairs you with someone.' },
    ]);
    const recipients = told(await bot.job('pair')).map(([to]) => to);
    expect(recipients).toEqual([1, 3, 4, 5, 6, 42]);
  });

  it('joining again after leaving brings a member back', async () => {
    const bot = await pairing();
    await bot.command('/pairing leave', { user: grace });
    await bot.command('/pairing join', { user: grace });
    expect(told(await bot.job('pair')).map(([to]) => to)).toContain(2);
  });

  it('with no group, only those who joined are paired', async () => {
    const bot = await pairing({ config: { group: '' } });
    await bot.command('/pairing join', { user: grace });
    await bot.command('/pairing join', { user: outsider });
    expect(told(await bot.job('pair'))).toEqual([
      [2, 'Hedy Lamarr'],
      [42, 'Grace Hopper'],
    ]);
    expect(bot.calls).toEqual([]);
  });

  it('/pairing says where you stand, and an unknown action how to use it', async () => {
    const bot = await pairing();
    expect(await bot.command('/pairing', { user: grace })).toEqual([
      {
        kind: 'comment',
        postId: 5001,
        text: 'Members of Engineering are in the coffee rounds (unless away). Write /pairing leave to stop, or /pairing join if you are not one.',
      },
    ]);
    await bot.command('/pairing leave', { user: grace });
    expect(await bot.command('/pairing', { user: grace })).toEqual([
      { kind: 'comment', postId: 5003, text: 'You left the coffee rounds. Write /pairing join to come back.' },
    ]);
    expect(await bot.command('/pairing maybe', { user: grace })).toEqual([
      { kind: 'comment', postId: 5004, text: 'Usage: /pairing join, /pairing leave, or /pairing to see where you stand.' },
    ]);
  });
});
