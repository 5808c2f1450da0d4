import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

// 07:00 in Berlin (UTC+2), before the 08:00 cron slot: the tests run the job themselves
const START = Date.UTC(2026, 5, 10, 5);
const TODAY = '2026-06-10';

interface Achievement {
  id: number;
  title: string;
  type: string;
}

interface Award {
  user: { id: number };
  awarded_at: string;
  is_manually_added: boolean;
  department: { id: number } | null;
}

async function runGreet(pair: Pair): Promise<void> {
  await pair.runJob('anniversary', 'greet');
}

async function user(pair: Pair, id: number): Promise<{ name: string; groups: { id: number; type: string }[] }> {
  return (await pair.platform.request<{ data: { name: string; groups: { id: number; type: string }[] } }>('GET', `/api/open/v1/users/${id}`)).data;
}

async function achievementTitled(pair: Pair, title: string): Promise<Achievement> {
  const { data } = await pair.platform.request<{ data: Achievement[] }>('GET', '/api/open/v1/achievements?per_page=50');
  return data.find((a) => a.title === title)!;
}

async function awardsOf(pair: Pair, achievementId: number): Promise<Award[]> {
  return (await pair.platform.request<{ data: Award[] }>('GET', `/api/open/v1/achievements/${achievementId}/awards?per_page=50`)).data;
}

/** Award requests the runtime sent for an achievement (the seed's employment awards are dated today, so a re-award would not show in the list). */
async function awardRequests(pair: Pair, achievementId: number): Promise<unknown[]> {
  const { data } = await pair.platform.request<{ data: { method: string; path: string }[] }>('GET', '/_sandbox/requests?limit=500');
  return data.filter((r) => r.method === 'POST' && r.path.startsWith(`/api/open/v1/achievements/${achievementId}/awards`));
}

async function anniversaryPosts(pair: Pair, wallId: number) {
  return (await pair.platform.wallPosts(wallId)).filter((p) => String(p.body).includes('work anniversary'));
}

describe('anniversary bot with a custom award (mode: both)', () => {
  let pair: Pair;
  let refs: SeedRefs;

  beforeAll(async () => {
    pair = await startPair({ bots: ['anniversary'], start: START, env: { ANNIVERSARY_MODE: 'both', ANNIVERSARY_AWARD_TITLE: 'Team player' } });
    refs = await pair.refs();
    await runGreet(pair);
  });
  afterAll(async () => pair?.close());

  it('names each colleague hired on this day 1 and 5 years ago, with the years, in one post', async () => {
    const posts = await pair.platform.waitFor(
      () => anniversaryPosts(pair, refs.company_wall_id),
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    const [oneYear, fiveYears] = refs.anniversary_today_user_ids as [number, number];
    expect(posts[0]?.body).toContain(`${(await user(pair, oneYear)).name}: 1 year with us`);
    expect(posts[0]?.body).toContain(`${(await user(pair, fiveYears)).name}: 5 years with us`);
  });

  it('sends each of them a direct message', async () => {
    const dms = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'direct' }),
      (m) => m.length >= 2,
    );
    expect(dms.map((m) => m.user_id).sort()).toEqual([...refs.anniversary_today_user_ids].sort());
  });

  it('awards the configured custom achievement on the day, in the department of a one-department colleague', async () => {
    const teamPlayer = await achievementTitled(pair, 'Team player');
    const awards = (await awardsOf(pair, teamPlayer.id)).filter((a) => refs.anniversary_today_user_ids.includes(a.user.id));
    expect(awards.map((a) => a.user.id).sort()).toEqual([...refs.anniversary_today_user_ids].sort());
    for (const award of awards) {
      expect(award.awarded_at.slice(0, 10)).toBe(TODAY);
      expect(award.is_manually_added).toBe(true);
      const departments = (await user(pair, award.user.id)).groups.filter((g) => g.type === 'department');
      if (departments.length === 1) expect(award.department?.id).toBe(departments[0]!.id);
    }
  });

  it('hands out no employment achievement: the platform awards those itself', async () => {
    const employment = await achievementTitled(pair, 'One year with us');
    expect(employment.type).toBe('employment');
    expect(await awardRequests(pair, employment.id)).toEqual([]);
  });
});

describe('anniversary bot configured with an employment achievement', () => {
  let pair: Pair;
  let refs: SeedRefs;

  beforeAll(async () => {
    pair = await startPair({ bots: ['anniversary'], start: START, env: { ANNIVERSARY_AWARD_TITLE: 'One year with us' } });
    refs = await pair.refs();
  });
  afterAll(async () => pair?.close());

  it('refuses to award it, and still greets', async () => {
    await runGreet(pair);
    const posts = await pair.platform.waitFor(
      () => anniversaryPosts(pair, refs.company_wall_id),
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    const employment = await achievementTitled(pair, 'One year with us');
    expect(await awardRequests(pair, employment.id)).toEqual([]);
  });
});
