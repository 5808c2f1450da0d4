import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './directory-harness';

type Post = { id: number; body: string; wall_id: number; wall_name: string; author: { id: number; type: string }; created_at: string; updated_at: string; media: unknown[]; gallery: unknown };
type List<T> = { data: T[]; links: Record<string, string | null>; meta: Record<string, number> };

describe('sandbox wall posts', () => {
  let h: Harness;
  afterEach(async () => h.close());

  const wall = () => h.refs.company_wall_id;

  it('creates a post published at once, authored by the token user, with 201 (spec: Wall post visibility; Post)', async () => {
    h = harness();
    const res = await h.api('POST', `/walls/${wall()}/posts`, { body: 'Hello wall' });
    expect(res.statusCode).toBe(201);
    const post = (res.json() as { data: Post }).data;
    expect(post).toMatchObject({ body: 'Hello wall', wall_id: wall(), wall_name: 'Company', author: { id: h.refs.admin_user_id, type: 'default' }, created_at: '2026-11-22T09:00:00+01:00' });
    expect((await h.api('GET', `/walls/${wall()}/posts/${post.id}`)).statusCode).toBe(200);
    const list = (await h.api('GET', `/walls/${wall()}/posts`)).json() as List<Post>;
    expect(list.data[0]?.id).toBe(post.id);
  });

  it('fires post.created with exactly the spec payload and the wall for filters (spec: Events)', async () => {
    h = harness();
    const post = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'Event me' })).json() as { data: Post }).data;
    const fired = h.events.filter((e) => e.event === 'post.created');
    expect(fired).toHaveLength(1);
    expect(fired[0]?.entityIds).toEqual({ wall: wall() });
    expect(fired[0]?.payload).toEqual({
      id: post.id, body: 'Event me', wall_id: wall(), wall_name: 'Company',
      author: { id: h.refs.admin_user_id, name: 'Sandra Admin', email: 'admin@sandbox.example' },
      created_at: post.created_at, updated_at: post.updated_at,
    });
  });

  it('attributes a post to the system user for a token configured so (spec: Authentication 4)', async () => {
    h = harness();
    const token = await h.tokenWith(['write:posts'], { attribution: 'system' });
    const post = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'From the system' }, token)).json() as { data: Post }).data;
    expect(post.author).toMatchObject({ id: h.refs.system_user_id, type: 'system' });
  });

  it('makes the bot the author when bot_user_id names a bot (spec: Posts, create body)', async () => {
    h = harness();
    const res = await h.api('POST', `/walls/${wall()}/posts`, { body: 'Beep', bot_user_id: h.refs.bot_user_id });
    expect((res.json() as { data: Post }).data.author).toMatchObject({ id: h.refs.bot_user_id, type: 'bot' });
    expect(h.events[0]?.payload).toMatchObject({ author: { id: h.refs.bot_user_id } });
  });

  it('answers 422 naming bot_user_id for a user who is not a bot, creating nothing (spec: Errors)', async () => {
    h = harness();
    const before = ((await h.api('GET', `/walls/${wall()}/posts`)).json() as List<Post>).meta.total;
    for (const id of [h.refs.employee_ids[0], 9999]) {
      const res = await h.api('POST', `/walls/${wall()}/posts`, { body: 'Not a bot', bot_user_id: id });
      expect(res.statusCode).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/^bot_user_id/);
    }
    expect(((await h.api('GET', `/walls/${wall()}/posts`)).json() as List<Post>).meta.total).toBe(before);
    expect(h.events).toHaveLength(0);
  });

  it('answers 422 naming body when it is missing or blank (spec: Posts, body required)', async () => {
    h = harness();
    for (const payload of [{}, { body: '   ' }]) {
      const res = await h.api('POST', `/walls/${wall()}/posts`, payload);
      expect(res.statusCode).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/^body/);
    }
  });

  it('answers 404 for an unknown wall and for a post of another wall (spec: Endpoints)', async () => {
    h = harness();
    expect((await h.api('POST', '/walls/999/posts', { body: 'x' })).statusCode).toBe(404);
    expect((await h.api('GET', '/walls/999/posts')).statusCode).toBe(404);
    const post = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'x' })).json() as { data: Post }).data;
    expect((await h.api('GET', `/walls/${h.refs.department_walls.Sales}/posts/${post.id}`)).statusCode).toBe(404);
  });

  it('lists newest first, published by default, and 422 for an unknown status (spec: Pagination; Wall post visibility)', async () => {
    h = harness();
    const older = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'older' })).json() as { data: Post }).data;
    h.clock.advance(60_000);
    const newer = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'newer' })).json() as { data: Post }).data;
    const list = (await h.api('GET', `/walls/${wall()}/posts`)).json() as List<Post>;
    expect(list.data.slice(0, 2).map((p) => p.id)).toEqual([newer.id, older.id]);
    const times = list.data.map((p) => Date.parse(p.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(((await h.api('GET', `/walls/${wall()}/posts?status=draft`)).json() as List<Post>).data).toEqual([]);
    expect(((await h.api('GET', `/walls/${wall()}/posts?status=all`)).json() as List<Post>).meta.total).toBe(list.meta.total);
    const bad = await h.api('GET', `/walls/${wall()}/posts?status=scheduled`);
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { message: string }).message).toMatch(/^status/);
  });

  it('pages through posts and filters by since (spec: Pagination)', async () => {
    h = harness();
    for (let i = 0; i < 4; i++) {
      h.clock.advance(60_000);
      await h.api('POST', `/walls/${wall()}/posts`, { body: `p${i}` });
    }
    const page = (await h.api('GET', `/walls/${wall()}/posts?per_page=2&page=2`)).json() as List<Post>;
    expect(page.data).toHaveLength(2);
    expect(page.links.prev).toContain('page=1');
    const since = (await h.api('GET', `/walls/${wall()}/posts?since=${encodeURIComponent('2026-11-22T09:02:00+01:00')}`)).json() as List<Post>;
    expect(since.data.map((p) => p.body)).toEqual(['p3', 'p2']);
  });

  it('updates the body and deletes with 204, after which the post is 404 (spec: Posts)', async () => {
    h = harness();
    const post = ((await h.api('POST', `/walls/${wall()}/posts`, { body: 'first' })).json() as { data: Post }).data;
    h.clock.advance(5_000);
    const updated = (await h.api('PUT', `/walls/${wall()}/posts/${post.id}`, { body: 'second' })).json() as { data: Post };
    expect(updated.data).toMatchObject({ body: 'second', created_at: post.created_at, updated_at: '2026-11-22T09:00:05+01:00' });
    const del = await h.api('DELETE', `/walls/${wall()}/posts/${post.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await h.api('GET', `/walls/${wall()}/posts/${post.id}`)).statusCode).toBe(404);
  });

  it('needs write:posts to post and read:posts to list (spec: Endpoints)', async () => {
    h = harness();
    const reader = await h.tokenWith(['read:posts']);
    const res = await h.api('POST', `/walls/${wall()}/posts`, { body: 'x' }, reader);
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toContain('write:posts');
    expect((await h.api('GET', `/walls/${wall()}/posts`, undefined, reader)).statusCode).toBe(200);
  });

  it('seeds a few weeks of posts with comments for demo, and none for empty', async () => {
    h = harness();
    const company = (await h.api('GET', `/walls/${wall()}/posts`)).json() as List<Post>;
    expect(company.meta.total).toBeGreaterThanOrEqual(3);
    expect(company.data.some((p) => p.author.type === 'bot')).toBe(true);
    const withComments = company.data.find((p) => p.body.startsWith('Welcome'));
    expect(((await h.api('GET', `/posts/${withComments?.id}/comments`)).json() as List<unknown>).meta.total).toBe(2);
    await h.close();
    h = harness('empty');
    expect(h.ctx.db.all('posts')).toHaveLength(0);
  });
});
