import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './directory-harness';

type Comment = { id: number; body: string; post_id: number; wall_id: number; author: { id: number }; created_at: string; updated_at: string };
type List<T> = { data: T[]; meta: Record<string, number> };

describe('sandbox comments', () => {
  let h: Harness;
  afterEach(async () => h.close());

  async function newPost(): Promise<number> {
    const res = await h.api('POST', `/walls/${h.refs.department_walls.Sales}/posts`, { body: 'Discuss' });
    h.events.length = 0;
    return (res.json() as { data: { id: number } }).data.id;
  }

  async function comment(postId: number, body = 'Nice', token?: string): Promise<Comment> {
    const res = await h.api('POST', `/posts/${postId}/comments`, { body }, token);
    expect(res.statusCode).toBe(201);
    return (res.json() as { data: Comment }).data;
  }

  it('creates a comment with post_id and wall_id and fires comment.created for the wall (spec: Comment; Events)', async () => {
    h = harness();
    const postId = await newPost();
    const c = await comment(postId);
    expect(c).toMatchObject({ body: 'Nice', post_id: postId, wall_id: h.refs.department_walls.Sales, author: { id: h.refs.admin_user_id } });
    expect(h.events).toEqual([{ event: 'comment.created', payload: expect.objectContaining({ id: c.id, post_id: postId, wall_id: h.refs.department_walls.Sales }), entityIds: { wall: h.refs.department_walls.Sales } }]);
    const list = (await h.api('GET', `/posts/${postId}/comments`)).json() as List<Comment>;
    expect(list.data.map((x) => x.id)).toEqual([c.id]);
    expect((await h.api('GET', `/posts/${postId}/comments/${c.id}`)).json()).toMatchObject({ data: { id: c.id } });
  });

  it('lets the author edit within 30 minutes and fires comment.updated (spec: Comment edit window)', async () => {
    h = harness();
    const c = await comment(await newPost());
    h.events.length = 0;
    h.clock.advance(29 * 60_000);
    const res = await h.api('PUT', `/posts/${c.post_id}/comments/${c.id}`, { body: 'Nicer' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: Comment }).data).toMatchObject({ body: 'Nicer', updated_at: '2026-11-22T09:29:00+01:00' });
    expect(h.events.map((e) => [e.event, e.payload.body])).toEqual([['comment.updated', 'Nicer']]);
  });

  it('answers 422 for a comment edit after 30 minutes, changing nothing (spec: Comment edit window)', async () => {
    h = harness();
    const c = await comment(await newPost());
    h.events.length = 0;
    h.clock.advance(30 * 60_000 + 1_000);
    const res = await h.api('PUT', `/posts/${c.post_id}/comments/${c.id}`, { body: 'Too late' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error' });
    expect((await h.api('GET', `/posts/${c.post_id}/comments/${c.id}`)).json()).toMatchObject({ data: { body: 'Nice' } });
    expect(h.events).toHaveLength(0);
  });

  it('answers 403 when someone other than the author edits (spec: Comment edit window — author only)', async () => {
    h = harness();
    const c = await comment(await newPost());
    const other = await h.tokenWith(['write:comments', 'read:comments'], { user_id: h.refs.managers.Sales });
    const res = await h.api('PUT', `/posts/${c.post_id}/comments/${c.id}`, { body: 'Hijack' }, other);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden' });
    expect((await h.api('GET', `/posts/${c.post_id}/comments/${c.id}`)).json()).toMatchObject({ data: { body: 'Nice' } });
  });

  it('deletes a comment with 204 and fires comment.deleted (spec: Comments; Events)', async () => {
    h = harness();
    const c = await comment(await newPost());
    h.events.length = 0;
    const res = await h.api('DELETE', `/posts/${c.post_id}/comments/${c.id}`);
    expect(res.statusCode).toBe(204);
    expect(h.events).toEqual([{ event: 'comment.deleted', payload: expect.objectContaining({ id: c.id, post_id: c.post_id }), entityIds: { wall: c.wall_id } }]);
    expect((await h.api('GET', `/posts/${c.post_id}/comments/${c.id}`)).statusCode).toBe(404);
  });

  it('answers 404 for comments of an unknown post and a comment of another post', async () => {
    h = harness();
    expect((await h.api('GET', '/posts/9999/comments')).statusCode).toBe(404);
    expect((await h.api('POST', '/posts/9999/comments', { body: 'x' })).statusCode).toBe(404);
    const a = await comment(await newPost());
    const otherPost = await newPost();
    expect((await h.api('GET', `/posts/${otherPost}/comments/${a.id}`)).statusCode).toBe(404);
  });

  it('answers 422 naming body for an empty comment', async () => {
    h = harness();
    const res = await h.api('POST', `/posts/${await newPost()}/comments`, { body: '' });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^body/);
  });

  it('lets an employee comment through the control API, firing comment.created', async () => {
    h = harness();
    const postId = await newPost();
    const res = await h.control('POST', `/users/${h.refs.employee_ids[1]}/comments`, { post_id: postId, body: 'From the floor' });
    expect(res.statusCode).toBe(201);
    expect(h.events.map((e) => [e.event, (e.payload.author as { id: number }).id])).toEqual([['comment.created', h.refs.employee_ids[1]]]);
  });
});
