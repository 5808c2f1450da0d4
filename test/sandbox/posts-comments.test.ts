import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { Comment } from '../../src/api/schemas/comment';
import type { IntrabotApi } from '../../src/api/create-api-client';
import { failure, useHttpSandbox } from './http-harness';

describe('sandbox comments', () => {
  const h = useHttpSandbox();

  async function newPost(): Promise<number> {
    const post = await h.api.posts.create(h.refs.department_walls.Sales!, { body: 'Discuss' });
    h.events.length = 0;
    return post.id;
  }

  async function comment(postId: number, body = 'Nice', api: IntrabotApi = h.api): Promise<Comment> {
    return api.comments.create(postId, { body });
  }

  it('creates a comment with post_id and wall_id and fires comment.created for the wall (spec: Comment; Events)', async () => {
    const postId = await newPost();
    const c = await comment(postId);
    expect(c).toMatchObject({ body: 'Nice', post_id: postId, wall_id: h.refs.department_walls.Sales, author: { id: h.refs.admin_user_id } });
    expect(h.events).toEqual([
      {
        event: 'comment.created',
        payload: expect.objectContaining({ id: c.id, post_id: postId, wall_id: h.refs.department_walls.Sales }),
        entityIds: { wall: h.refs.department_walls.Sales },
      },
    ]);
    expect((await h.api.comments.list(postId)).data.map((x) => x.id)).toEqual([c.id]);
    expect(await h.api.comments.get(postId, c.id)).toMatchObject({ id: c.id });
    // the status itself, which the client does not surface
    expect((await h.raw('POST', `/posts/${postId}/comments`, { body: { body: 'again' } })).status).toBe(201);
  });

  it('lets the author edit within 30 minutes and fires comment.updated (spec: Comment edit window)', async () => {
    const c = await comment(await newPost());
    h.events.length = 0;
    await h.control.advance(29 * 60);
    expect(await h.api.comments.update(c.post_id, c.id, { body: 'Nicer' })).toMatchObject({ body: 'Nicer', updated_at: '2026-11-22T09:29:00+01:00' });
    expect(h.events.map((e) => [e.event, e.payload.body])).toEqual([['comment.updated', 'Nicer']]);
  });

  it('answers 422 for a comment edit after 30 minutes, changing nothing (spec: Comment edit window)', async () => {
    const c = await comment(await newPost());
    h.events.length = 0;
    await h.control.advance(30 * 60 + 1);
    const error = await failure(h.api.comments.update(c.post_id, c.id, { body: 'Too late' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformStatus: 422 });
    expect(await h.api.comments.get(c.post_id, c.id)).toMatchObject({ body: 'Nice' });
    expect(h.events).toHaveLength(0);
  });

  it('answers 403 when someone other than the author edits (spec: Comment edit window — author only)', async () => {
    const c = await comment(await newPost());
    const other = await h.clientWith(['write:comments', 'read:comments'], { user_id: h.refs.managers.Sales });
    const error = await failure(other.comments.update(c.post_id, c.id, { body: 'Hijack' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ platformStatus: 403, missingScope: undefined });
    expect(await h.api.comments.get(c.post_id, c.id)).toMatchObject({ body: 'Nice' });
  });

  it('deletes a comment with 204 and fires comment.deleted (spec: Comments; Events)', async () => {
    const c = await comment(await newPost());
    h.events.length = 0;
    await expect(h.api.comments.delete(c.post_id, c.id)).resolves.toBeUndefined();
    expect(h.events).toEqual([
      { event: 'comment.deleted', payload: expect.objectContaining({ id: c.id, post_id: c.post_id }), entityIds: { wall: c.wall_id } },
    ]);
    await expect(h.api.comments.get(c.post_id, c.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the 204 itself, over raw HTTP
    const d = await comment(c.post_id);
    const res = await h.raw('DELETE', `/posts/${d.post_id}/comments/${d.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('answers 404 for comments of an unknown post and a comment of another post', async () => {
    await expect(h.api.comments.list(9999)).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.comments.create(9999, { body: 'x' })).rejects.toBeInstanceOf(ApiNotFoundError);
    const a = await comment(await newPost());
    const otherPost = await newPost();
    await expect(h.api.comments.get(otherPost, a.id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('answers 422 naming body for an empty comment', async () => {
    // the client refuses an empty body before sending, so raw HTTP
    const res = await h.raw('POST', `/posts/${await newPost()}/comments`, { body: { body: '' } });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/^body/);
  });

  it('lets an employee comment through the control API, firing comment.created', async () => {
    const postId = await newPost();
    const made = await h.platform.employeeComment(h.refs.employee_ids[1]!, { post_id: postId, body: 'From the floor' });
    expect(made).toMatchObject({ body: 'From the floor' });
    expect(h.events.map((e) => [e.event, (e.payload.author as { id: number }).id])).toEqual([['comment.created', h.refs.employee_ids[1]]]);
    expect((await h.api.comments.list(postId)).data.map((x) => x.id)).toEqual([made.id]);
  });
});
