import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

type Json = Record<string, unknown>;
interface User {
  id: number;
  name: string;
  groups: { id: number; name: string; type: string }[];
}

const API = '/api/open/v1';

// End to end: the sandbox delivers the events over signed HTTP, the runtime handles them and sends
// through its outbox. The command's answers in detail are tested in process in give-kudos.test.ts.
describe('kudos bot', () => {
  let pair: Pair;
  let refs: SeedRefs;
  let teamPlayer: number;
  let botUserId: number;

  const user = async (id: number): Promise<User> => (await pair.platform.request<{ data: User }>('GET', `${API}/users/${id}`)).data;
  const departmentOf = (u: User) => u.groups.find((g) => g.type === 'department')!;
  const award = async (achievementId: number, u: User) => pair.platform.award(achievementId, u.id);
  const command = async (body: string) => {
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    return String(comments[0]!.body);
  };
  const postsMentioning = async (wallId: number, text: string) => (await pair.platform.wallPosts(wallId)).filter((p) => String(p.body).includes(text));

  beforeAll(async () => {
    pair = await startPair({ bots: ['kudos'] });
    // the test reads comments back through the API with the runtime's token: room for both
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    refs = await pair.refs();
    teamPlayer = refs.achievements.custom_public_id;
    botUserId = pair.botUserId('kudos');
    // a namesake of the head of Engineering, in Sales, before the bot first reads the directory
    await pair.platform.request('POST', `${API}/users`, {
      email: 'ada.lovelace2@sandbox.example',
      first_name: 'Ada',
      last_name: 'Lovelace',
      groups: [refs.departments.Sales],
    });
  });
  afterAll(async () => pair?.close());

  it('congratulates the holder of a public achievement on their department wall', async () => {
    const holder = await user(refs.employee_ids[1]!);
    const wall = refs.department_walls[departmentOf(holder).name]!;
    await award(teamPlayer, holder);
    const posts = await pair.platform.waitFor(
      () => postsMentioning(wall, holder.name),
      (p) => p.length > 0,
    );
    expect(posts[0]!.body).toBe(`🤝 Congratulations, ${holder.name}! You have been awarded "Team player".`);
    expect(posts[0]).toMatchObject({ author: expect.objectContaining({ id: botUserId }) });
  });

  it('stays silent for a personal achievement (spec: Achievement, visibility)', async () => {
    const personal = await pair.platform.request<{ data: Json & { id: number } }>('POST', `${API}/achievements`, {
      type: 'custom',
      title: 'Quiet helper',
      visibility: 'personal',
      is_published: true,
    });
    const holder = await user(refs.employee_ids[2]!);
    await award(personal.data.id, holder);
    await pair.settle();
    const wall = refs.department_walls[departmentOf(holder).name]!;
    expect(await postsMentioning(wall, 'Quiet helper')).toEqual([]);
    expect(await postsMentioning(refs.company_wall_id, 'Quiet helper')).toEqual([]);
  });

  it('awards the achievement and posts the reason once, not again for its own award event', async () => {
    const holder = await user(refs.employee_ids[3]!);
    const wall = refs.department_walls[departmentOf(holder).name]!;
    const answer = await command(`/kudos ${holder.name.toUpperCase()} for shipping the release`);
    expect(answer).toContain(`${holder.name} received "Team player"`);
    await pair.settle();
    const awards = await pair.platform.request<{ data: { user: { id: number } }[] }>('GET', `${API}/achievements/${teamPlayer}/awards?per_page=50`);
    expect(awards.data.filter((a) => a.user.id === holder.id)).toHaveLength(1);
    const posts = await postsMentioning(wall, holder.name);
    expect(posts.map((p) => p.body)).toEqual([
      `🤝 Kudos to ${holder.name} from ${(await user(refs.employee_ids[0]!)).name} for shipping the release!\nThey have been awarded "Team player".`,
    ]);
  });

  it('takes the command in a comment too', async () => {
    const holder = await user(refs.employee_ids[4]!);
    const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'Release 4.2 is out!' });
    await pair.platform.employeeComment(refs.employee_ids[0]!, { post_id: post.id, body: `/kudos ${holder.name} for the release notes` });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 1,
    );
    expect(comments.map((c) => c.body)).toContainEqual(expect.stringContaining(`${holder.name} received "Team player"`));
    await pair.settle();
    expect(await postsMentioning(refs.department_walls[departmentOf(holder).name]!, 'for the release notes')).toHaveLength(1);
  });

  it('picks one namesake when the department is given in brackets', async () => {
    const answer = await command('/kudos Ada Lovelace (Sales) for the pitch');
    expect(answer).toContain('Ada Lovelace received "Team player"');
    await pair.settle();
    const posts = await postsMentioning(refs.department_walls.Sales!, 'for the pitch');
    expect(posts).toHaveLength(1);
    expect(await postsMentioning(refs.department_walls.Engineering!, 'for the pitch')).toEqual([]);
  });
});

describe('kudos bot with an achievement that cannot be awarded', () => {
  let pair: Pair;
  beforeAll(async () => {
    // the demo's "Innovation award" is a draft: not something /kudos may hand out
    pair = await startPair({ bots: ['kudos'], env: { KUDOS_ACHIEVEMENT: 'Innovation award' } });
  });
  afterAll(async () => pair?.close());

  it('answers the command with the problem instead of retrying it', async () => {
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/kudos Ada Lovelace for the keynote' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]!.body).toBe('Sorry, I cannot award kudos right now (the kudos achievement is not set up). Please tell an administrator.');
    // handled, not retried: nothing is left live, and nothing went to the dead letters
    await pair.settle();
    const dead = (await (await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=dead`)).json()) as { data: unknown[] };
    expect(dead.data).toEqual([]);
  });
});
