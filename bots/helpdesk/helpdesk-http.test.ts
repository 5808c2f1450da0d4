import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

interface Response {
  id: number;
}
interface WallPost {
  id: number;
  body: string;
  author: { id: number };
}

// End to end: the sandbox fires the formresponse events over signed HTTP (filtered by form ids), the
// runtime posts the request on the Company wall and comments its update there.
describe('helpdesk bot over HTTP', () => {
  let pair: Pair;
  let refs: SeedRefs;

  const submit = async (formId: number, answers: Record<string, unknown>) =>
    (await pair.platform.request<{ data: Response }>('POST', `/_sandbox/forms/${formId}/responses`, { user_id: refs.employee_ids[0]!, answers })).data;
  const requestPost = async (id: number) =>
    pair.platform.waitFor(
      async () => ((await pair.platform.wallPosts(refs.company_wall_id)) as unknown as WallPost[]).filter((p) => p.body.startsWith(`🎫 Request #${id}:`)),
      (posts) => posts.length > 0,
    );

  beforeAll(async () => {
    pair = await startPair({ bots: ['helpdesk'] });
    // the bot reads the wall back to find its post: room for the test's reads too
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    refs = await pair.refs();
  });
  afterAll(async () => pair?.close());

  it('posts a new request on the triage wall and comments its update under it', async () => {
    const response = await submit(1, { item: 'Monitor', reason: 'Second screen' });
    const [post] = await requestPost(response.id);
    expect(post!.body).toContain('What do you need?: Monitor');
    expect(post!.author.id).toBe(pair.botUserId('helpdesk'));

    const assignee = refs.manager_ids[0]!;
    await pair.platform.request('POST', `/_sandbox/form-responses/${response.id}/update`, { status: 'in_progress', assignees: [assignee] });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post!.id),
      (c) => c.length > 0,
    );
    expect(String(comments[0]!.body)).toMatch(/^🎫 #\d+ \(IT equipment request\):\n• status: new → in_progress\n• assigned to .+$/);
  });

  it('posts an anonymous request without a requester, and nothing for the whistleblower channel (spec: Events)', async () => {
    const pulse = await submit(2, { mood: 3, comment: 'Fine' });
    const [post] = await requestPost(pulse.id);
    expect(post!.body).toContain('From: anonymous');
    await submit(3, { report: 'Something happened' });
    await pair.settle();
    const posts = (await pair.platform.wallPosts(refs.company_wall_id)) as unknown as WallPost[];
    expect(posts.filter((p) => p.body.includes('Whistleblower') || p.body.includes('Something happened'))).toEqual([]);
  });
});
