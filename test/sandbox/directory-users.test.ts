import { afterEach, describe, expect, it } from 'vitest';
import { harness, multipart, pngBytes, type Harness } from './directory-harness';

type User = { id: number; type: string; hired_at: string | null; groups: { id: number; is_manager: boolean; managers?: unknown }[]; avatar_url: string | null; registered_at: string | null };
type List<T> = { data: T[]; links: Record<string, string | null>; meta: Record<string, number> };

describe('sandbox users', () => {
  let h: Harness;
  afterEach(async () => h.close());

  async function allUsers(query = ''): Promise<User[]> {
    const out: User[] = [];
    for (let page = 1; ; page++) {
      const body = (await h.api('GET', `/users?per_page=50&page=${page}${query}`)).json() as List<User>;
      out.push(...body.data);
      if (body.links.next === null) return out;
    }
  }

  it('lists only registered users: pending, deactivated and bot users are omitted (spec: User; Users)', async () => {
    h = harness();
    const ids = (await allUsers()).map((u) => u.id);
    expect(ids).toEqual(h.refs.registered_user_ids);
    for (const hidden of [h.refs.pending_user_id, h.refs.deactivated_user_id, h.refs.bot_user_id, h.refs.company_user_id, h.refs.system_user_id]) {
      expect(ids).not.toContain(hidden);
    }
  });

  it('answers 404 for a pending, deactivated or bot user by id (spec: Users)', async () => {
    h = harness();
    for (const id of [h.refs.pending_user_id, h.refs.deactivated_user_id, h.refs.bot_user_id]) {
      const res = await h.api('GET', `/users/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('');
    }
    expect((await h.api('GET', `/users/${h.refs.employee_ids[0]}`)).statusCode).toBe(200);
  });

  it('shows kiosk and shadow users as kinds of user (spec: User.type)', async () => {
    h = harness();
    expect(((await h.api('GET', `/users/${h.refs.kiosk_user_id}`)).json() as { data: User }).data.type).toBe('kiosk');
    expect(((await h.api('GET', `/users/${h.refs.shadow_user_id}`)).json() as { data: User }).data.type).toBe('shadow');
  });

  it('filters to the members of a group with group_id (spec: Users)', async () => {
    h = harness();
    const sales = h.refs.departments.Sales as number;
    const members = await allUsers(`&group_id=${sales}`);
    expect(members.length).toBeGreaterThan(5);
    for (const user of members) expect(user.groups.map((g) => g.id)).toContain(sales);
    expect((await h.api('GET', '/users?group_id=abc')).json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('group_id') });
  });

  it('paginates with per_page capped at 50 and absolute links null at the ends (spec: Pagination)', async () => {
    h = harness();
    const first = (await h.api('GET', '/users?per_page=10')).json() as List<User>;
    expect(first.data).toHaveLength(10);
    expect(first.links.prev).toBeNull();
    expect(first.links.next).toMatch(/^http:\/\/.+\/api\/open\/v1\/users\?per_page=10&page=2$/);
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 10, total: h.refs.registered_user_ids.length });
    const capped = (await h.api('GET', '/users?per_page=500')).json() as List<User>;
    expect(capped.meta.per_page).toBe(50);
  });

  it('returns only users created after `since` (spec: Pagination)', async () => {
    h = harness();
    const created = await h.api('POST', '/users', { email: 'new.hire@sandbox.example', first_name: 'New', last_name: 'Hire' });
    const since = (await h.api('GET', '/users?since=2026-11-21')).json() as List<User>;
    expect(since.data.map((u) => u.id)).toContain((created.json() as { data: User }).data.id);
    expect(since.data.length).toBeLessThan(5);
  });

  it('reports the manual hire date over the synced one (spec: User.hired_at)', async () => {
    h = harness();
    const user = ((await h.api('GET', `/users/${h.refs.manual_hire_user_id}`)).json() as { data: User }).data;
    expect(user.hired_at).toBe(h.refs.manual_hire.manual);
    expect(user.hired_at).not.toBe(h.refs.manual_hire.synced);
  });

  it('embeds groups with is_manager per membership and without managers (spec: Group)', async () => {
    h = harness();
    const manager = ((await h.api('GET', `/users/${h.refs.managers.Engineering}`)).json() as { data: User }).data;
    const engineering = manager.groups.find((g) => g.id === h.refs.departments.Engineering);
    expect(engineering).toMatchObject({ is_manager: true });
    expect(engineering).not.toHaveProperty('managers');
    expect(manager.groups.map((g) => g.id)).not.toContain(h.refs.system_group_id);
  });

  it('creates a registered user that GET can read back (spec: Other endpoints that exist)', async () => {
    h = harness();
    const res = await h.api('POST', '/users', {
      email: 'greta.new@sandbox.example', first_name: 'Greta', last_name: 'New', title: 'Analyst',
      hired_at: '2026-12-01', date_of_birth: '1990-05-04', groups: [h.refs.departments.People],
    });
    expect(res.statusCode).toBe(201);
    const user = (res.json() as { data: User }).data;
    expect(user).toMatchObject({ type: 'default', hired_at: '2026-12-01', groups: [{ id: h.refs.departments.People, is_manager: false }] });
    expect(user.registered_at).not.toBeNull();
    expect((await h.api('GET', `/users/${user.id}`)).statusCode).toBe(200);
  });

  it('answers 422 naming email when an active user holds it, and creates nothing (spec: Errors, Users)', async () => {
    h = harness();
    const before = (await h.api('GET', '/users')).json() as List<User>;
    const res = await h.api('POST', '/users', { email: 'ADA.lovelace@sandbox.example', first_name: 'A', last_name: 'L' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', message: expect.stringMatching(/^email/) });
    const after = (await h.api('GET', '/users')).json() as List<User>;
    expect(after.meta.total).toBe(before.meta.total);
  });

  it("accepts a deactivated user's email for a new user", async () => {
    h = harness();
    const res = await h.api('POST', '/users', { email: 'otto.alt@sandbox.example', first_name: 'Otto', last_name: 'Neu' });
    expect(res.statusCode).toBe(201);
  });

  it('answers 422 naming the missing field of a create body', async () => {
    h = harness();
    const res = await h.api('POST', '/users', { email: 'x@sandbox.example', first_name: 'X' });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^last_name/);
  });

  it('needs write:users to create a user (spec: Endpoints)', async () => {
    h = harness();
    const token = await h.tokenWith(['read:users']);
    const res = await h.api('POST', '/users', { email: 'x@sandbox.example', first_name: 'X', last_name: 'Y' }, token);
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toContain('write:users');
  });

  it('deletes a user with 204, after which the user is gone (spec: Errors, 204)', async () => {
    h = harness();
    const id = h.refs.employee_ids[0];
    const res = await h.api('DELETE', `/users/${id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await h.api('GET', `/users/${id}`)).statusCode).toBe(404);
    expect((await h.api('DELETE', `/users/${id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a user synced from an external system with 422 (spec: Errors, Users)', async () => {
    h = harness();
    const res = await h.api('DELETE', `/users/${h.refs.synced_user_id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error' });
    expect((await h.api('GET', `/users/${h.refs.synced_user_id}`)).statusCode).toBe(200);
  });

  it('sets an avatar from a multipart `media` image and serves it (spec: Other endpoints that exist)', async () => {
    h = harness();
    const id = h.refs.employee_ids[1];
    const body = await multipart({}, { field: 'media', name: 'me.png', type: 'image/png', bytes: pngBytes(64, 64) });
    const res = await h.app.inject({ method: 'POST', url: `/api/open/v1/users/${id}/avatar`, headers: { authorization: 'Bearer svc_sandbox_token', ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    const user = (res.json() as { data: User }).data;
    expect(user.id).toBe(id);
    expect(user.avatar_url).toMatch(/\/_sandbox\/media\/\d+\/me\.png$/);
    const download = await h.app.inject({ method: 'GET', url: new URL(user.avatar_url as string).pathname });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
  });

  it('refuses an avatar that is not an image with 422 naming media', async () => {
    h = harness();
    const body = await multipart({}, { field: 'media', name: 'cv.pdf', type: 'application/pdf', bytes: new Uint8Array([1, 2, 3]) });
    const res = await h.app.inject({ method: 'POST', url: `/api/open/v1/users/${h.refs.employee_ids[1]}/avatar`, headers: { authorization: 'Bearer svc_sandbox_token', ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toMatch(/^media/);
  });
});
