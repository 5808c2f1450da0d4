import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { User } from '../../src/api/schemas/user';
import { failure, pngBytes, useHttpSandbox } from './http-harness';

function imageForm(name: string, type: string, bytes: Uint8Array): FormData {
  const form = new FormData();
  form.append('media', new Blob([bytes], { type }), name);
  return form;
}

describe('sandbox users', () => {
  const h = useHttpSandbox();

  async function allUsers(query: { group_id?: number } = {}): Promise<User[]> {
    const out: User[] = [];
    for await (const user of h.api.users.all({ per_page: 50, ...query })) out.push(user);
    return out;
  }

  it('lists only registered users: pending, deactivated and bot users are omitted (spec: User; Users)', async () => {
    const ids = (await allUsers()).map((u) => u.id);
    expect(ids).toEqual(h.refs.registered_user_ids);
    for (const hidden of [h.refs.pending_user_id, h.refs.deactivated_user_id, h.refs.bot_user_id, h.refs.company_user_id, h.refs.system_user_id]) {
      expect(ids).not.toContain(hidden);
    }
  });

  it('answers 404 for a pending, deactivated or bot user by id (spec: Users)', async () => {
    for (const id of [h.refs.pending_user_id, h.refs.deactivated_user_id, h.refs.bot_user_id]) {
      await expect(h.api.users.get(id), `user ${id}`).rejects.toBeInstanceOf(ApiNotFoundError);
      const res = await h.raw('GET', `/users/${id}`);
      expect(res.status).toBe(404);
      expect(res.text).toBe('');
    }
    await expect(h.api.users.get(h.refs.employee_ids[0]!)).resolves.toMatchObject({ id: h.refs.employee_ids[0] });
  });

  it('shows kiosk and shadow users as kinds of user (spec: User.type)', async () => {
    expect((await h.api.users.get(h.refs.kiosk_user_id)).type).toBe('kiosk');
    expect((await h.api.users.get(h.refs.shadow_user_id)).type).toBe('shadow');
  });

  it('filters to the members of a group with group_id (spec: Users)', async () => {
    const sales = h.refs.departments.Sales as number;
    const members = await allUsers({ group_id: sales });
    expect(members.length).toBeGreaterThan(5);
    for (const user of members) expect(user.groups.map((g) => g.id)).toContain(sales);
    const error = await failure(h.api.users.list({ group_id: 'abc' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'group_id', platformMessage: expect.stringContaining('group_id') });
  });

  it('paginates with per_page capped at 50 and absolute links null at the ends (spec: Pagination)', async () => {
    const first = await h.api.users.list({ per_page: 10 });
    expect(first.data).toHaveLength(10);
    expect(first.links!.prev).toBeNull();
    expect(first.links!.next).toBe(`${h.baseUrl}/api/open/v1/users?per_page=10&page=2`);
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 10, total: h.refs.registered_user_ids.length });
    const last = await h.api.users.list({ per_page: 10, page: first.meta!.last_page as number });
    expect(last.links!.next).toBeNull();
    expect(last.links!.prev).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/open\/v1\/users\?/);
    const capped = await h.api.users.list({ per_page: 500 });
    expect(capped.meta!.per_page).toBe(50);
    expect(capped.data).toHaveLength(h.refs.registered_user_ids.length);
  });

  it('returns only users created after `since` (spec: Pagination)', async () => {
    const created = await h.api.users.create({ email: 'new.hire@sandbox.example', first_name: 'New', last_name: 'Hire' });
    const since = await h.api.users.list({ since: '2026-11-21' });
    expect(since.data.map((u) => u.id)).toContain(created.id);
    expect(since.data.length).toBeLessThan(5);
  });

  it('compares `since` at the second the platform prints: the newest created_at passed back returns nothing again (spec: Pagination, since)', async () => {
    h.clock.advance(1_500); // mid-second: 09:00:01.500 Berlin
    const created = await h.api.users.create({ email: 'mid.second@sandbox.example', first_name: 'Mid', last_name: 'Second' });
    expect(created.created_at).toBe('2026-11-22T09:00:01+01:00');
    const ids = async (since: string): Promise<number[]> => (await h.api.users.list({ since, per_page: 50 })).data.map((u) => u.id);
    expect(await ids(created.created_at)).not.toContain(created.id);
    expect(await ids('2026-11-22T09:00:00+01:00')).toContain(created.id);
  });

  it('reports the manual hire date over the synced one (spec: User.hired_at)', async () => {
    const user = await h.api.users.get(h.refs.manual_hire_user_id);
    expect(user.hired_at).toBe(h.refs.manual_hire.manual);
    expect(user.hired_at).not.toBe(h.refs.manual_hire.synced);
  });

  it('reads the registration date as hired_at of users without a hire date: admin, kiosk, shadow, POST /users (spec: User.hired_at is a date)', async () => {
    expect((await h.api.users.get(h.refs.admin_user_id)).hired_at).toBe('2026-11-22');
    for (const id of [h.refs.kiosk_user_id, h.refs.shadow_user_id]) {
      const user = await h.api.users.get(id);
      // registered_at is written in the customer's zone, so its first ten characters are that day
      expect(user.hired_at, `user ${id}`).toBe(user.registered_at!.slice(0, 10));
      expect(user.hired_at! < '2026-01-01').toBe(true);
    }
    h.clock.advance(86_400_000);
    const created = await h.api.users.create({ email: 'no.hire.date@sandbox.example', first_name: 'No', last_name: 'Hiredate' });
    expect(created).toMatchObject({ hired_at: '2026-11-23', registered_at: '2026-11-23T09:00:00+01:00' });
  });

  it('reads the registration date as last_active_on of users never seen active (spec: User.last_active_on is a date)', async () => {
    const created = await h.api.users.create({ email: 'never.active@sandbox.example', first_name: 'Never', last_name: 'Active' });
    expect(created.last_active_on).toBe('2026-11-22');
    // the company's own user, embedded as an award's assigned_by, has never been active either
    const custom = (await h.api.achievements.list({ per_page: 50, is_published: true, type: 'custom' })).data[0]!;
    const [award] = await h.platform.award(custom.id, h.refs.employee_ids[0]!);
    expect(award).toMatchObject({ assigned_by: { type: 'customer', last_active_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) } });
  });

  it('embeds groups with is_manager per membership and without managers (spec: Group)', async () => {
    const manager = await h.api.users.get(h.refs.managers.Engineering as number);
    const engineering = manager.groups.find((g) => g.id === h.refs.departments.Engineering);
    expect(engineering).toMatchObject({ is_manager: true });
    expect(engineering).not.toHaveProperty('managers');
    expect(manager.groups.map((g) => g.id)).not.toContain(h.refs.system_group_id);
  });

  it('creates a registered user that GET can read back (spec: Other endpoints that exist)', async () => {
    const user = await h.api.users.create({
      email: 'greta.new@sandbox.example',
      first_name: 'Greta',
      last_name: 'New',
      title: 'Analyst',
      hired_at: '2026-12-01',
      date_of_birth: '1990-05-04',
      groups: [h.refs.departments.People as number],
    });
    expect(user).toMatchObject({ type: 'default', hired_at: '2026-12-01', groups: [{ id: h.refs.departments.People, is_manager: false }] });
    expect(user.registered_at).not.toBeNull();
    await expect(h.api.users.get(user.id)).resolves.toMatchObject({ id: user.id, email: 'greta.new@sandbox.example' });
  });

  it('answers 422 naming email when an active user holds it, and creates nothing (spec: Errors, Users)', async () => {
    const before = await h.api.users.list();
    const error = await failure(h.api.users.create({ email: 'ADA.lovelace@sandbox.example', first_name: 'A', last_name: 'L' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'email', platformMessage: expect.stringMatching(/^email/) });
    expect((await h.api.users.list()).meta!.total).toBe(before.meta!.total);
  });

  it("accepts a deactivated user's email for a new user", async () => {
    await expect(h.api.users.create({ email: 'otto.alt@sandbox.example', first_name: 'Otto', last_name: 'Neu' })).resolves.toMatchObject({
      email: 'otto.alt@sandbox.example',
    });
  });

  it('answers 422 naming the missing field of a create body', async () => {
    // the client's schema requires last_name, so the incomplete body goes over raw HTTP
    const res = await h.raw('POST', '/users', { body: { email: 'x@sandbox.example', first_name: 'X' } });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/^last_name/);
  });

  it('needs write:users to create a user (spec: Endpoints)', async () => {
    const api = await h.clientWith(['read:users']);
    const error = await failure(api.users.create({ email: 'x@sandbox.example', first_name: 'X', last_name: 'Y' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:users' });
  });

  it('deletes a user with 204, after which the user is gone (spec: Errors, 204)', async () => {
    const [id, other] = h.refs.employee_ids as [number, number];
    await expect(h.api.users.delete(id)).resolves.toBeUndefined();
    await expect(h.api.users.get(id)).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.users.delete(id)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the 204's empty body, seen over raw HTTP
    const res = await h.raw('DELETE', `/users/${other}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('lists the directory as it is now: a user deleted or created since the last read is gone or there', async () => {
    const [gone] = h.refs.employee_ids as [number];
    expect((await allUsers()).map((u) => u.id)).toContain(gone);
    await h.api.users.delete(gone);
    const made = await h.api.users.create({ first_name: 'Nia', last_name: 'New', email: 'nia.new@example.com' });
    const ids = (await allUsers()).map((u) => u.id);
    expect(ids).not.toContain(gone);
    expect(ids).toContain(made.id);
  });

  it('refuses to delete a user synced from an external system with 422 (spec: Errors, Users)', async () => {
    await expect(h.api.users.delete(h.refs.synced_user_id)).rejects.toBeInstanceOf(ApiValidationError);
    await expect(h.api.users.get(h.refs.synced_user_id)).resolves.toMatchObject({ id: h.refs.synced_user_id });
  });

  it('sets an avatar from a multipart `media` image and serves it (spec: Other endpoints that exist)', async () => {
    const id = h.refs.employee_ids[1] as number;
    const user = await h.api.users.setAvatar(id, imageForm('me.png', 'image/png', pngBytes(64, 64)));
    expect(user.id).toBe(id);
    expect(user.avatar_url).toMatch(/\/_sandbox\/media\/\d+\/me\.png$/);
    const download = await h.raw('GET', new URL(user.avatar_url as string).pathname, { token: null });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
  });

  it('refuses an avatar that is not an image with 422 naming media', async () => {
    const error = await failure(h.api.users.setAvatar(h.refs.employee_ids[1] as number, imageForm('cv.pdf', 'application/pdf', new Uint8Array([1, 2, 3]))));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringMatching(/^media/) });
  });
});
