import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import { failure, useHttpSandbox } from './http-harness';

describe('sandbox wall posts', () => {
  const h = useHttpSandbox();
  const wall = () => h.refs.company_wall_id;

  it('creates a post published at once, authored by the token user, with 201 (spec: Wall post visibility; Post)', async () => {
    const post = await h.api.posts.create(wall(), { body: 'Hello wall' });
    expect(post).toMatchObject({
      body: 'Hello wall',
      wall_id: wall(),
      wall_name: 'Company',
      author: { id: h.refs.admin_user_id, type: 'default' },
      created_at: '2026-11-22T09:00:00+01:00',
    });
    await expect(h.api.posts.get(wall(), post.id)).resolves.toMatchObject({ id: post.id });
    expect((await h.api.posts.list(wall())).data[0]?.id).toBe(post.id);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', `/walls/${wall()}/posts`, { body: { body: 'again' } })).status).toBe(201);
  });

  it('fires post.created with exactly the spec payload and the wall for filters (spec: Events)', async () => {
    const post = await h.api.posts.create(wall(), { body: 'Event me' });
    const fired = h.events.filter((e) => e.event === 'post.created');
    expect(fired).toHaveLength(1);
    expect(fired[0]?.entityIds).toEqual({ wall: wall() });
    expect(fired[0]?.payload).toEqual({
      id: post.id,
      body: 'Event me',
      wall_id: wall(),
      wall_name: 'Company',
      author: { id: h.refs.admin_user_id, name: 'Sandra Admin', email: 'admin@sandbox.example' },
      created_at: post.created_at,
      updated_at: post.updated_at,
    });
  });

  it('attributes a post to the system user for a token configured so (spec: Authentication 4)', async () => {
    const api = await h.clientWith(['write:posts'], { attribution: 'system' });
    const post = await api.posts.create(wall(), { body: 'From the system' });
    expect(post.author).toMatchObject({ id: h.refs.system_user_id, type: 'system' });
  });

  it('makes the bot the author when bot_user_id names a bot (spec: Posts, create body)', async () => {
    const post = await h.api.posts.create(wall(), { body: 'Beep', bot_user_id: h.refs.bot_user_id });
    expect(post.author).toMatchObject({ id: h.refs.bot_user_id, type: 'bot' });
    expect(h.events[0]?.payload).toMatchObject({ author: { id: h.refs.bot_user_id } });
  });

  it('answers 422 naming bot_user_id for a user who is not a bot, creating nothing (spec: Errors)', async () => {
    const before = (await h.api.posts.list(wall())).meta!.total;
    for (const id of [h.refs.employee_ids[0]!, 9999]) {
      const error = await failure(h.api.posts.create(wall(), { body: 'Not a bot', bot_user_id: id }));
      expect(error).toBeInstanceOf(ApiValidationError);
      expect(error).toMatchObject({ field: 'bot_user_id', platformMessage: expect.stringMatching(/^bot_user_id/) });
    }
    expect((await h.api.posts.list(wall())).meta!.total).toBe(before);
    expect(h.events).toHaveLength(0);
  });

  it('answers 422 naming body when it is missing or blank (spec: Posts, body required)', async () => {
    // the client refuses these bodies before sending, so they go over raw HTTP
    for (const payload of [{}, { body: '   ' }]) {
      const res = await h.raw('POST', `/walls/${wall()}/posts`, { body: payload });
      expect(res.status).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/^body/);
    }
  });

  it('answers 404 for an unknown wall and for a post of another wall (spec: Endpoints)', async () => {
    await expect(h.api.posts.create(999, { body: 'x' })).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.posts.list(999)).rejects.toBeInstanceOf(ApiNotFoundError);
    const post = await h.api.posts.create(wall(), { body: 'x' });
    await expect(h.api.posts.get(h.refs.department_walls.Sales!, post.id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('lists newest first, published by default, and 422 for an unknown status (spec: Pagination; Wall post visibility)', async () => {
    const older = await h.api.posts.create(wall(), { body: 'older' });
    await h.control.advance(60);
    const newer = await h.api.posts.create(wall(), { body: 'newer' });
    const list = await h.api.posts.list(wall());
    expect(list.data.slice(0, 2).map((p) => p.id)).toEqual([newer.id, older.id]);
    const times = list.data.map((p) => Date.parse(p.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await h.api.posts.list(wall(), { status: 'draft' })).data).toEqual([]);
    expect((await h.api.posts.list(wall(), { status: 'all' })).meta!.total).toBe(list.meta!.total);
    // the client's types allow only the spec's statuses, so the unknown one goes over raw HTTP
    const bad = await h.raw('GET', `/walls/${wall()}/posts?status=scheduled`);
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(/^status/);
  });

  it('pages through posts and filters by since (spec: Pagination)', async () => {
    for (let i = 0; i < 4; i++) {
      await h.control.advance(60);
      await h.api.posts.create(wall(), { body: `p${i}` });
    }
    const page = await h.api.posts.list(wall(), { per_page: 2, page: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.links!.prev).toContain('page=1');
    const since = await h.api.posts.list(wall(), { since: '2026-11-22T09:02:00+01:00' });
    expect(since.data.map((p) => p.body)).toEqual(['p3', 'p2']);
  });

  it('updates the body and deletes with 204, after which the post is 404 (spec: Posts)', async () => {
    const post = await h.api.posts.create(wall(), { body: 'first' });
    await h.control.advance(5);
    const updated = await h.api.posts.update(wall(), post.id, { body: 'second' });
    expect(updated).toMatchObject({ body: 'second', created_at: post.created_at, updated_at: '2026-11-22T09:00:05+01:00' });
    await expect(h.api.posts.delete(wall(), post.id)).resolves.toBeUndefined();
    await expect(h.api.posts.get(wall(), post.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the 204's empty body, seen over raw HTTP
    const other = await h.api.posts.create(wall(), { body: 'other' });
    const del = await h.raw('DELETE', `/walls/${wall()}/posts/${other.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });

  it('needs write:posts to post and read:posts to list (spec: Endpoints)', async () => {
    const reader = await h.clientWith(['read:posts']);
    const error = await failure(reader.posts.create(wall(), { body: 'x' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:posts' });
    await expect(reader.posts.list(wall())).resolves.toMatchObject({ data: expect.any(Array) });
  });

  it('seeds a few weeks of posts with comments for demo, and none for empty', async () => {
    const company = await h.api.posts.list(wall());
    expect(company.meta!.total).toBeGreaterThanOrEqual(3);
    expect(company.data.some((p) => p.author.type === 'bot')).toBe(true);
    const withComments = company.data.find((p) => p.body.startsWith('Welcome'));
    expect((await h.api.comments.list(withComments!.id)).meta!.total).toBe(2);
    await h.reset('empty');
    expect(h.sandbox.ctx.db.all('posts')).toHaveLength(0);
  });
});
