import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDirectory, localDate } from 'intrabot/helpers';
import { InvalidInputError } from 'intrabot';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';
import birthday from './index';

const DAY_S = 86_400;

interface LoggedRequest {
  method: string;
  path: string;
}

async function runGreet(pair: Pair): Promise<void> {
  await pair.runJob('birthday', 'greet');
}

async function nameOf(pair: Pair, id: number): Promise<string> {
  return (await pair.platform.request<{ data: { name: string } }>('GET', `/api/open/v1/users/${id}`)).data.name;
}

async function birthdayPosts(pair: Pair, wallId: number) {
  return (await pair.platform.wallPosts(wallId)).filter((p) => String(p.body).includes('Happy birthday'));
}

/** The sandbox's local calendar date `days` after the pair's clock, as `MM-DD`. */
function monthDayAfter(pair: Pair, days: number): string {
  return localDate(pair.clock.now() + days * DAY_S * 1000, 'Europe/Berlin').slice(5);
}

async function readCopy(pair: Pair) {
  return decodeDirectory(await pair.botStore('birthday').get('directory'));
}

describe('birthday bot config', () => {
  it('fills in the defaults: the company target, one post, February 28, the bundled templates', () => {
    expect(birthday.parseConfig({})).toEqual({
      target: 'company',
      mode: 'post',
      leap_day: 'feb28',
      groups: [],
      skip_away: false,
      full_resync_days: 7,
      templates: { post: 'birthday/post', dm: 'birthday/dm' },
    });
  });

  it('refuses an unknown delivery mode, naming the field', () => {
    let error: unknown;
    try {
      birthday.parseConfig({ mode: 'email' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('config.mode');
  });
});

describe('birthday bot on the demo directory (mode: both)', () => {
  let pair: Pair;
  let refs: SeedRefs;

  beforeAll(async () => {
    // 07:00 in Berlin, before the 08:00 cron slot, so the scheduler leaves the runs to the tests
    pair = await startPair({ bots: ['birthday'], start: Date.UTC(2026, 5, 10, 5), env: { BIRTHDAY_MODE: 'both' } });
    refs = await pair.refs();
  });
  afterAll(async () => pair?.close());

  it("greets today's celebrants in one post on the Company wall", async () => {
    await runGreet(pair);
    const posts = await pair.platform.waitFor(
      () => birthdayPosts(pair, refs.company_wall_id),
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    for (const id of refs.birthday_today_user_ids) expect(posts[0]?.body).toContain(await nameOf(pair, id));
    expect(posts[0]?.body).not.toContain(await nameOf(pair, refs.leap_day_birthday_user_id));
  });

  it('sends each celebrant a direct message from the bot', async () => {
    const dms = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'direct' }),
      (m) => m.length >= 2,
    );
    expect(dms.map((m) => m.user_id).sort()).toEqual([...refs.birthday_today_user_ids].sort());
    const first = refs.birthday_today_user_ids[0]!;
    const firstName = (await nameOf(pair, first)).split(' ')[0]!;
    expect(dms.find((m) => m.user_id === first)?.text).toContain(`Happy birthday, ${firstName}`);
  });

  it('posts nothing new when the job runs again the same day', async () => {
    await runGreet(pair);
    // whatever the second run queued has been sent once the pair has settled
    await pair.settle();
    expect(await birthdayPosts(pair, refs.company_wall_id)).toHaveLength(1);
    expect(await pair.platform.messages({ kind: 'direct' })).toHaveLength(2);
  });

  it('syncs incrementally with since the next day, in a handful of requests', async () => {
    await pair.platform.advance(DAY_S);
    await pair.platform.request('DELETE', '/_sandbox/requests');
    await runGreet(pair);
    const { data } = await pair.platform.request<{ data: LoggedRequest[] }>('GET', '/_sandbox/requests?limit=500');
    const lists = data.filter((r) => r.method === 'GET' && /\/api\/open\/v1\/users(\?|$)/.test(r.path));
    expect(lists).toHaveLength(1);
    expect(new URL(lists[0]!.path, 'http://x').searchParams.get('since')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(data.length).toBeLessThanOrEqual(10);
  });

  it('picks up a user created after the full sync, and never greets one deleted after the sync', async () => {
    const birthday = monthDayAfter(pair, 2);
    const create = (first: string) =>
      pair.platform.request<{ data: { id: number; name: string } }>('POST', '/api/open/v1/users', {
        email: `${first.toLowerCase()}@example.com`,
        first_name: first,
        last_name: 'Newcomer',
        date_of_birth: `1990-${birthday}`,
      });
    const staying = (await create('Stella')).data;
    const leaving = (await create('Leon')).data;
    await pair.platform.advance(DAY_S);
    await runGreet(pair); // its incremental sync brings both newcomers into the copy
    expect((await readCopy(pair))?.users.map((u) => u.id)).toEqual(expect.arrayContaining([staying.id, leaving.id]));

    await pair.platform.request('DELETE', `/api/open/v1/users/${leaving.id}`);
    await pair.platform.advance(DAY_S);
    await runGreet(pair);
    const posts = await pair.platform.waitFor(
      () => birthdayPosts(pair, refs.company_wall_id),
      (p) => p.some((post) => String(post.body).includes(staying.name)),
    );
    expect(posts.find((post) => String(post.body).includes(staying.name))?.body).not.toContain(leaving.name);
    expect(await pair.platform.messages({ kind: 'direct', user_id: leaving.id })).toHaveLength(0);
    // the 404 also removed the colleague who left from the bot's copy
    expect((await readCopy(pair))?.users.map((u) => u.id)).not.toContain(leaving.id);
  });
});

describe('birthday bot on February 28 of a common year', () => {
  let pair: Pair;
  let refs: SeedRefs;

  beforeAll(async () => {
    // 07:00 in Berlin (UTC+1) on 2027-02-28, before the cron slot; the seed puts two birthdays on the clock's today
    pair = await startPair({ bots: ['birthday'], start: Date.UTC(2027, 1, 28, 6) });
    refs = await pair.refs();
  });
  afterAll(async () => pair?.close());

  it('greets the colleague born on February 29 on February 28 (leap_day: feb28)', async () => {
    await runGreet(pair);
    const posts = await pair.platform.waitFor(
      () => birthdayPosts(pair, refs.company_wall_id),
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toContain(await nameOf(pair, refs.leap_day_birthday_user_id));
    for (const id of refs.birthday_today_user_ids) expect(posts[0]?.body).toContain(await nameOf(pair, id));
  });

  it('does not greet them again on March 1', async () => {
    await pair.platform.advance(DAY_S);
    await runGreet(pair);
    await pair.settle();
    const leapName = await nameOf(pair, refs.leap_day_birthday_user_id);
    const posts = await birthdayPosts(pair, refs.company_wall_id);
    expect(posts.filter((p) => String(p.body).includes(leapName))).toHaveLength(1);
  });
});
