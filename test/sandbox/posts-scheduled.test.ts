import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './directory-harness';

type Post = { id: number; body: string; status?: string; created_at: string };
type List<T> = { data: T[]; meta: Record<string, number> };

describe('sandbox employee posts', () => {
  let h: Harness;
  afterEach(async () => h.close());

  async function schedule(at: string): Promise<Post> {
    const res = await h.control('POST', `/users/${h.refs.employee_ids[0]}/posts`, { wall_id: h.refs.company_wall_id, body: 'Later!', scheduled_at: at });
    expect(res.statusCode).toBe(201);
    return (res.json() as { data: Post }).data;
  }

  const listIds = async (status: string) =>
    ((await h.api('GET', `/walls/${h.refs.company_wall_id}/posts?status=${status}&per_page=50`)).json() as List<Post>).data.map((p) => p.id);

  it('publishes an employee post at once and fires post.created (spec: Events)', async () => {
    h = harness();
    const res = await h.control('POST', `/users/${h.refs.employee_ids[0]}/posts`, { wall_id: h.refs.company_wall_id, body: 'Now!' });
    const post = (res.json() as { data: Post }).data;
    expect(post.status).toBe('published');
    expect(await listIds('published')).toContain(post.id);
    expect(h.events.filter((e) => e.event === 'post.created').map((e) => e.payload.id)).toEqual([post.id]);
    expect(h.events[0]?.payload).toMatchObject({ author: { id: h.refs.employee_ids[0] } });
  });

  it('keeps an employee-scheduled post out of every list status and 404 until it goes live (spec: Wall post visibility)', async () => {
    h = harness();
    const post = await schedule('2026-11-22T10:00:00+01:00');
    expect(post.status).toBe('scheduled');
    for (const status of ['published', 'draft', 'all']) expect(await listIds(status)).not.toContain(post.id);
    const get = await h.api('GET', `/walls/${h.refs.company_wall_id}/posts/${post.id}`);
    expect(get.statusCode).toBe(404);
    expect(get.body).toBe('');
    expect((await h.api('GET', `/posts/${post.id}/comments`)).statusCode).toBe(404);
    expect(h.events).toHaveLength(0);
    const all = ((await h.control('GET', `/walls/${h.refs.company_wall_id}/posts`)).json() as { data: Post[] }).data;
    expect(all.find((p) => p.id === post.id)?.status).toBe('scheduled');
  });

  it('goes live when the clock reaches scheduled_at, firing post.created once (spec: Wall post visibility; Events)', async () => {
    h = harness();
    const post = await schedule('2026-11-22T10:00:00+01:00');
    await h.control('POST', '/clock', { advance_seconds: 59 * 60 });
    expect((await h.api('GET', `/walls/${h.refs.company_wall_id}/posts/${post.id}`)).statusCode).toBe(404);
    await h.control('POST', '/clock', { advance_seconds: 120 });
    expect(h.events.filter((e) => e.event === 'post.created').map((e) => e.payload.id)).toEqual([post.id]);
    const live = (await h.api('GET', `/walls/${h.refs.company_wall_id}/posts/${post.id}`)).json() as { data: Post };
    expect(live.data.created_at).toBe('2026-11-22T10:00:00+01:00');
    expect(await listIds('published')).toContain(post.id);
    await h.control('POST', '/clock', { advance_seconds: 3600 });
    expect(h.events.filter((e) => e.event === 'post.created')).toHaveLength(1);
  });

  it('is visible as soon as the clock passes, even before a tick runs', async () => {
    h = harness();
    const post = await schedule('2026-11-22T09:30:00+01:00');
    h.clock.advance(31 * 60_000);
    expect((await h.api('GET', `/walls/${h.refs.company_wall_id}/posts/${post.id}`)).statusCode).toBe(200);
    expect(h.events.filter((e) => e.event === 'post.created')).toHaveLength(1);
  });

  it('publishes a post scheduled in the past at once', async () => {
    h = harness();
    const post = await schedule('2026-11-22T08:00:00+01:00');
    expect(post.status).toBe('published');
    expect(h.events).toHaveLength(1);
  });

  it('refuses an employee post from an unknown or pending user, or to an unknown wall', async () => {
    h = harness();
    expect((await h.control('POST', `/users/${h.refs.pending_user_id}/posts`, { wall_id: h.refs.company_wall_id, body: 'x' })).statusCode).toBe(404);
    const res = await h.control('POST', `/users/${h.refs.employee_ids[0]}/posts`, { wall_id: 999, body: 'x' });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^wall_id/);
    const badDate = await h.control('POST', `/users/${h.refs.employee_ids[0]}/posts`, { wall_id: h.refs.company_wall_id, body: 'x', scheduled_at: 'tomorrow' });
    expect((badDate.json() as { message: string }).message).toMatch(/^scheduled_at/);
  });
});
