import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError } from '../../src/api/errors';
import { failure, useHttpSandbox } from './http-harness';

describe('sandbox groups, walls, bots, token and locales', () => {
  const h = useHttpSandbox();

  it('never returns system groups from /groups (spec: Group)', async () => {
    const groups = (await h.api.groups.list({ per_page: 50 })).data;
    expect(groups.map((g) => g.id)).not.toContain(h.refs.system_group_id);
    expect(groups.map((g) => g.type)).not.toContain('system');
    await expect(h.api.groups.get(h.refs.system_group_id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('filters groups by type and answers 422 for an unknown type (spec: Groups)', async () => {
    const departments = (await h.api.groups.list({ type: 'department' })).data;
    expect(departments.map((g) => g.name)).toEqual(['Engineering', 'Sales', 'People', 'Operations']);
    expect((await h.api.groups.list({ type: 'profession' })).data).toHaveLength(2);
    // the client's types allow only the three known types, so the unknown ones go over raw HTTP
    for (const bad of ['team', 'system']) {
      const res = await h.raw('GET', `/groups?type=${bad}`);
      expect(res.status).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/^type/);
    }
  });

  it('lists managers as { id, name } on the /groups endpoints (spec: Group)', async () => {
    const engineering = await h.api.groups.get(h.refs.departments.Engineering as number);
    expect(engineering.managers).toEqual([{ id: h.refs.managers.Engineering, name: 'Ada Lovelace' }]);
  });

  it('creates a department by default (spec: Other endpoints that exist, POST /groups)', async () => {
    // without `type` on the wire: the client's schema would fill in the default itself
    const res = await h.raw('POST', '/groups', { body: { name: 'Legal' } });
    expect(res.status).toBe(201);
    const group = res.json<{ data: { id: number } }>().data;
    expect(group).toMatchObject({ name: 'Legal', type: 'department', managers: [] });
    await expect(h.api.groups.get(group.id)).resolves.toMatchObject({ name: 'Legal', type: 'department' });
  });

  it('accepts is_open on a custom group only, 422 naming is_open otherwise (spec: Other endpoints that exist)', async () => {
    expect(await h.api.groups.create({ name: 'Book Club', type: 'custom', is_open: true })).toMatchObject({ type: 'custom', is_open: true });
    const before = (await h.api.groups.list()).meta!.total;
    // the client refuses is_open on other types before sending, so these go over raw HTTP
    for (const type of [undefined, 'department', 'profession']) {
      const res = await h.raw('POST', '/groups', { body: { name: 'Nope', is_open: false, ...(type ? { type } : {}) } });
      expect(res.status).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/^is_open/);
    }
    expect((await h.api.groups.list()).meta!.total).toBe(before);
  });

  it('lists walls with the groups they are scoped to (spec: Wall)', async () => {
    const walls = (await h.api.walls.list()).data;
    const company = walls.find((w) => w.id === h.refs.company_wall_id);
    expect(company).toMatchObject({ name: 'Company', groups: [] });
    const sales = walls.find((w) => w.id === h.refs.department_walls.Sales);
    expect(sales?.groups.map((g) => g.id)).toEqual([h.refs.departments.Sales]);
    expect(sales?.groups[0]).not.toHaveProperty('managers');
    expect(await h.api.walls.get(h.refs.company_wall_id)).toMatchObject({ name: 'Company' });
    await expect(h.api.walls.get(999)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('has no write routes for walls (spec: Wall — read-only through the API)', async () => {
    // the client has no wall writes at all: these are raw requests
    expect((await h.raw('POST', '/walls', { body: { name: 'New' } })).status).toBe(404);
    expect((await h.raw('PUT', `/walls/${h.refs.company_wall_id}`, { body: { name: 'Renamed' } })).status).toBe(404);
    expect(await h.api.walls.get(h.refs.company_wall_id)).toMatchObject({ name: 'Company' });
  });

  it('creates bots with the customer app icon as default avatar and keeps them out of /users (spec: Bot user)', async () => {
    const bot = await h.api.bots.create({ name: 'Kudos Bot' });
    expect(bot.avatar_url).toMatch(/^https:\/\//);
    const seeded = await h.api.bots.get(h.refs.bot_user_id);
    expect(bot.avatar_url).toBe(seeded.avatar_url);
    await expect(h.api.users.get(bot.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    expect((await h.api.bots.list()).data.map((b) => b.id)).toEqual([h.refs.bot_user_id, bot.id]);
  });

  it('updates a bot name and avatar, and answers 404 for a user who is not a bot (spec: Bots)', async () => {
    const updated = await h.api.bots.update(h.refs.bot_user_id, { name: 'Renamed Bot', avatar_url: 'https://cdn.example/bot.png' });
    expect(updated).toMatchObject({ id: h.refs.bot_user_id, name: 'Renamed Bot', avatar_url: 'https://cdn.example/bot.png' });
    await expect(h.api.bots.get(h.refs.employee_ids[0]!)).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.bots.update(h.refs.employee_ids[0]!, { name: 'x' })).rejects.toBeInstanceOf(ApiNotFoundError);
    // a body without name: the client's schema requires it, so raw HTTP
    const bad = await h.raw('POST', '/bots', { body: { avatar_url: 'https://cdn.example/bot.png' } });
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(/^name/);
  });

  it('describes the calling token for any valid token, whatever its scopes (spec: Other endpoints that exist)', async () => {
    const token = await h.tokenWith([], { expires_at: '2027-01-01T00:00:00+01:00' });
    expect(await h.client(token).token.get()).toEqual({ name: 't-', scopes: [], expires_at: '2027-01-01T00:00:00+01:00' });
    const res = await h.raw('GET', '/token', { token });
    expect(res.json()).toEqual({ data: { name: 't-', scopes: [], expires_at: '2027-01-01T00:00:00+01:00' } });
    expect(res.text).not.toContain(token);
  });

  it('lists the active locales with the default (read:locales)', async () => {
    expect(await h.api.locales.get()).toEqual({ locales: { en: 'English', de: 'Deutsch' }, default: 'en' });
    const error = await failure((await h.clientWith(['read:users'])).locales.get());
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:locales' });
  });
});
