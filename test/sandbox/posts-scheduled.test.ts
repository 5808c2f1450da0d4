import { describe, expect, it } from 'vitest';
import { ApiNotFoundError } from '../../src/api/errors';
import type { Item } from '../../src/testing/sandbox-control';
import { useHttpSandbox } from './http-harness';

describe('sandbox employee posts', () => {
  const h = useHttpSandbox();
  const wall = () => h.refs.company_wall_id;

  async function schedule(at: string): Promise<Item & { status?: string }> {
    return h.platform.employeePost(h.refs.employee_ids[0]!, { wall_id: wall(), body: 'Later!', scheduled_at: at });
  }

  const listIds = async (status: 'published' | 'draft' | 'all') => (await h.api.posts.list(wall(), { status, per_page: 50 })).data.map((p) => p.id);

  it('publishes an employee post at once and fires post.created (spec: Events)', async () => {
    const post = (await h.platform.employeePost(h.refs.employee_ids[0]!, { wall_id: wall(), body: 'Now!' })) as Item & { status?: string };
    expect(post.status).toBe('published');
    expect(await listIds('published')).toContain(post.id);
    expect(h.events.filter((e) => e.event === 'post.created').map((e) => e.payload.id)).toEqual([post.id]);
    expect(h.events[0]?.payload).toMatchObject({ author: { id: h.refs.employee_ids[0] } });
  });

  it('stores a silent employee post, live, without firing post.created (for intrabot trigger, which signs its own)', async () => {
    const res = await h.raw('POST', `/_sandbox/users/${h.refs.employee_ids[0]!}/posts`, {
      body: { wall_id: wall(), body: '/help', silent: true },
      token: null,
    });
    expect(res.status).toBe(201);
    const post = res.json<{ data: { id: number } }>().data;
    expect(await listIds('published')).toContain(post.id);
    expect(h.events.filter((e) => e.event === 'post.created')).toEqual([]);
  });

  it('keeps an employee-scheduled post out of every list status and 404 until it goes live (spec: Wall post visibility)', async () => {
    const post = await schedule('2026-11-22T10:00:00+01:00');
    expect(post.status).toBe('scheduled');
    for (const status of ['published', 'draft', 'all'] as const) expect(await listIds(status)).not.toContain(post.id);
    await expect(h.api.posts.get(wall(), post.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    const get = await h.raw('GET', `/walls/${wall()}/posts/${post.id}`);
    expect(get.status).toBe(404);
    expect(get.text).toBe('');
    await expect(h.api.comments.list(post.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    expect(h.events).toHaveLength(0);
    const all = (await h.platform.wallPosts(wall())) as (Item & { status?: string })[];
    expect(all.find((p) => p.id === post.id)?.status).toBe('scheduled');
  });

  it('goes live when the clock reaches scheduled_at, firing post.created once (spec: Wall post visibility; Events)', async () => {
    const post = await schedule('2026-11-22T10:00:00+01:00');
    await h.control.advance(59 * 60);
    await expect(h.api.posts.get(wall(), post.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    await h.control.advance(120);
    expect(h.events.filter((e) => e.event === 'post.created').map((e) => e.payload.id)).toEqual([post.id]);
    expect((await h.api.posts.get(wall(), post.id)).created_at).toBe('2026-11-22T10:00:00+01:00');
    expect(await listIds('published')).toContain(post.id);
    await h.control.advance(3600);
    expect(h.events.filter((e) => e.event === 'post.created')).toHaveLength(1);
  });

  it('is visible as soon as the clock passes, even before a tick runs', async () => {
    const post = await schedule('2026-11-22T09:30:00+01:00');
    // moved in process, not through the control API (which ticks at once)
    h.clock.advance(31 * 60_000);
    await expect(h.api.posts.get(wall(), post.id)).resolves.toMatchObject({ id: post.id });
    expect(h.events.filter((e) => e.event === 'post.created')).toHaveLength(1);
  });

  it('publishes a post scheduled in the past at once', async () => {
    const post = await schedule('2026-11-22T08:00:00+01:00');
    expect(post.status).toBe('published');
    expect(h.events).toHaveLength(1);
  });

  it('refuses an employee post from an unknown or pending user, or to an unknown wall', async () => {
    // the control API's own statuses: raw HTTP
    const post = (userId: number, body: Record<string, unknown>) => h.raw('POST', `/_sandbox/users/${userId}/posts`, { body, token: null });
    expect((await post(h.refs.pending_user_id, { wall_id: wall(), body: 'x' })).status).toBe(404);
    const res = await post(h.refs.employee_ids[0]!, { wall_id: 999, body: 'x' });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/^wall_id/);
    const badDate = await post(h.refs.employee_ids[0]!, { wall_id: wall(), body: 'x', scheduled_at: 'tomorrow' });
    expect(badDate.status).toBe(422);
    expect(badDate.json<{ message: string }>().message).toMatch(/^scheduled_at/);
  });
});
