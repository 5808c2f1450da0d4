import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, type SeedRefs, startPair } from 'intrabot/testing';

describe('welcome bot', () => {
  let pair: Pair;
  let refs: SeedRefs;
  let botUserId: number;

  beforeAll(async () => {
    pair = await startPair({ bots: ['welcome'] });
    refs = await pair.refs();
    botUserId = pair.botUserId('welcome');
  });
  afterAll(async () => pair?.close());

  it('sends a registering user a direct message from the bot with the onboarding links', async () => {
    const userId = refs.pending_user_id;
    await pair.platform.register(userId);
    const messages = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'direct', user_id: userId }),
      (m) => m.length > 0,
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ sender: expect.objectContaining({ id: botUserId }) });
    const text = String(messages[0]!.text);
    expect(text).toContain('Welcome aboard, Nina!');
    expect(text).toContain('Employee handbook: https://intranet.example/handbook');
    expect(text).toContain('IT setup guide: https://intranet.example/it-setup');
  });

  it("posts on the user's department wall once onboarding is completed", async () => {
    // the pending user of the demo seed is in Engineering and has registered in the test above
    const userId = refs.pending_user_id;
    const wall = refs.department_walls.Engineering!;
    await pair.platform.completeOnboarding(userId);
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((post) => String(post.body).includes('Nina Neumann')),
    );
    const post = posts.find((p) => String(p.body).includes('Nina Neumann'))!;
    expect(post.body).toBe('🎉 Nina Neumann (Junior Developer) has completed onboarding and joins Engineering. Please give them a warm welcome!');
    expect(post).toMatchObject({ author: expect.objectContaining({ id: botUserId }) });
    // the company wall stays quiet: the fallback is only for users without a department wall
    const company = await pair.platform.wallPosts(refs.company_wall_id);
    expect(company.some((p) => String(p.body).includes('Nina Neumann'))).toBe(false);
  });

  it('posts on the fallback wall for a user without a department', async () => {
    const created = await pair.platform.request<{ data: { id: number } }>('POST', '/api/open/v1/users', {
      email: 'lone.wolf@sandbox.example',
      first_name: 'Lone',
      last_name: 'Wolf',
    });
    await pair.platform.completeOnboarding(created.data.id);
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(refs.company_wall_id),
      (p) => p.some((post) => String(post.body).includes('Lone Wolf')),
    );
    expect(posts.find((p) => String(p.body).includes('Lone Wolf'))!.body).toBe('🎉 Lone Wolf has completed onboarding. Please give them a warm welcome!');
  });
});
