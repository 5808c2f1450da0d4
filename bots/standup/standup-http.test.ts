import { fileURLToPath } from 'node:url';
import { startPair, type Pair, type SeedRefs } from 'intrabot/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

let pair: Pair;
let refs: SeedRefs;
// Thursday 3 December 2026, 09:30 in Berlin, the sandbox's zone
const ASK_MS = Date.UTC(2026, 11, 3, 8, 30);

beforeAll(async () => {
  pair = await startPair({ bots: ['standup'], botsDir: fileURLToPath(new URL('..', import.meta.url)), start: ASK_MS });
  refs = await pair.refs();
});
afterAll(async () => pair?.close());

interface Item {
  id: number;
  body: string;
  author?: { id: number };
}

async function engineeringMembers(): Promise<number[]> {
  const res = await pair.platform.request<{ data: { id: number }[] }>('GET', `/api/open/v1/users?group_id=${refs.departments.Engineering}&per_page=50`);
  return res.data.map((u) => u.id).sort((a, b) => a - b);
}

it('invites the group by DM, takes a check-in under the day post, and posts one summary naming who did not answer', async () => {
  const wall = refs.department_walls.Engineering!;
  const members = await engineeringMembers();
  await pair.runJob('standup', 'ask');
  // sends are spread about one a second under the rate budget: let the shared clock move them on
  await pair.settle({ advanceClock: true });

  const dms = await pair.platform.waitFor(
    () => pair.platform.messages({ kind: 'direct' }),
    (m) => m.length >= members.length,
  );
  expect(dms.map((m) => Number(m.user_id)).sort((a, b) => a - b)).toEqual(members);
  const posts = (await pair.platform.wallPosts(wall)) as unknown as Item[];
  const thread = posts.find((p) => p.body.includes('write /standup under this post'));
  expect(thread).toBeDefined();

  // Ada (the head of Engineering) checks in under the day's post
  const ada = refs.managers.Engineering!;
  const comments = () => pair.platform.commentsOn(thread!.id) as Promise<unknown> as Promise<Item[]>;
  let seen = 0;
  for (const [say, next] of [
    ['/standup', 'What did you do yesterday?'],
    ['Reviewed the payments PR', 'What will you do today?'],
    ['Ship the release', 'Anything blocking you?'],
    ['none', 'You are in today'],
  ] as const) {
    await pair.platform.employeeComment(ada, { post_id: thread!.id, body: say });
    seen += 1;
    const want = seen * 2;
    const got = await pair.platform.waitFor(comments, (c) => c.length >= want);
    expect(got.map((c) => c.body).join('\n')).toContain(next);
  }

  // the deadline: 11:00
  await pair.platform.advance(90 * 60);
  await pair.runJob('standup', 'summary');
  const summary = await pair.platform.waitFor(
    async () => ((await pair.platform.wallPosts(wall)) as unknown as Item[]).filter((p) => p.body.startsWith('📋 Stand-up summary')),
    (s) => s.length > 0,
  );
  const adaName = (await pair.platform.request<{ data: { name: string } }>('GET', `/api/open/v1/users/${ada}`)).data.name;
  expect(summary).toHaveLength(1);
  expect(summary[0]!.body).toContain(`${adaName}\n• Yesterday: Reviewed the payments PR\n• Today: Ship the release\n• Blockers: none`);
  expect(summary[0]!.body).toMatch(/No answer: .+/);
  expect(summary[0]!.body.split('No answer: ')[1]).not.toContain(adaName);

  // a second run of the day posts nothing more
  await pair.runJob('standup', 'summary');
  await pair.settle();
  expect(((await pair.platform.wallPosts(wall)) as unknown as Item[]).filter((p) => p.body.startsWith('📋 Stand-up summary'))).toHaveLength(1);
});
