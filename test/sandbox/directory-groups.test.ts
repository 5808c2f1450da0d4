import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './directory-harness';

type Group = { id: number; name: string; type: string; managers: { id: number; name: string }[]; is_open?: boolean };
type List<T> = { data: T[]; meta: Record<string, number> };

describe('sandbox groups, walls, bots, token and locales', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('never returns system groups from /groups (spec: Group)', async () => {
    h = harness();
    const groups = ((await h.api('GET', '/groups?per_page=50')).json() as List<Group>).data;
    expect(groups.map((g) => g.id)).not.toContain(h.refs.system_group_id);
    expect(groups.map((g) => g.type)).not.toContain('system');
    expect((await h.api('GET', `/groups/${h.refs.system_group_id}`)).statusCode).toBe(404);
  });

  it('filters groups by type and answers 422 for an unknown type (spec: Groups)', async () => {
    h = harness();
    const departments = ((await h.api('GET', '/groups?type=department')).json() as List<Group>).data;
    expect(departments.map((g) => g.name)).toEqual(['Engineering', 'Sales', 'People', 'Operations']);
    const professions = ((await h.api('GET', '/groups?type=profession')).json() as List<Group>).data;
    expect(professions).toHaveLength(2);
    for (const bad of ['team', 'system']) {
      const res = await h.api('GET', `/groups?type=${bad}`);
      expect(res.statusCode).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/^type/);
    }
  });

  it('lists managers as { id, name } on the /groups endpoints (spec: Group)', async () => {
    h = harness();
    const engineering = ((await h.api('GET', `/groups/${h.refs.departments.Engineering}`)).json() as { data: Group }).data;
    expect(engineering.managers).toEqual([{ id: h.refs.managers.Engineering, name: 'Ada Lovelace' }]);
  });

  it('creates a department by default (spec: Other endpoints that exist, POST /groups)', async () => {
    h = harness();
    const res = await h.api('POST', '/groups', { name: 'Legal' });
    expect(res.statusCode).toBe(201);
    const group = (res.json() as { data: Group }).data;
    expect(group).toMatchObject({ name: 'Legal', type: 'department', managers: [] });
    expect((await h.api('GET', `/groups/${group.id}`)).statusCode).toBe(200);
  });

  it('accepts is_open on a custom group only, 422 naming is_open otherwise (spec: Other endpoints that exist)', async () => {
    h = harness();
    const custom = await h.api('POST', '/groups', { name: 'Book Club', type: 'custom', is_open: true });
    expect((custom.json() as { data: Group }).data).toMatchObject({ type: 'custom', is_open: true });
    const before = ((await h.api('GET', '/groups')).json() as List<Group>).meta.total;
    for (const type of [undefined, 'department', 'profession']) {
      const res = await h.api('POST', '/groups', { name: 'Nope', is_open: false, ...(type ? { type } : {}) });
      expect(res.statusCode).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/^is_open/);
    }
    expect(((await h.api('GET', '/groups')).json() as List<Group>).meta.total).toBe(before);
  });

  it('lists walls with the groups they are scoped to (spec: Wall)', async () => {
    h = harness();
    const walls = ((await h.api('GET', '/walls')).json() as List<{ id: number; name: string; groups: { id: number; managers?: unknown }[] }>).data;
    const company = walls.find((w) => w.id === h.refs.company_wall_id);
    expect(company).toMatchObject({ name: 'Company', groups: [] });
    const sales = walls.find((w) => w.id === h.refs.department_walls.Sales);
    expect(sales?.groups.map((g) => g.id)).toEqual([h.refs.departments.Sales]);
    expect(sales?.groups[0]).not.toHaveProperty('managers');
    expect((await h.api('GET', `/walls/${h.refs.company_wall_id}`)).json()).toMatchObject({ data: { name: 'Company' } });
    expect((await h.api('GET', '/walls/999')).statusCode).toBe(404);
  });

  it('has no write routes for walls (spec: Wall — read-only through the API)', async () => {
    h = harness();
    expect((await h.api('POST', '/walls', { name: 'New' })).statusCode).toBe(404);
    expect((await h.api('PUT', `/walls/${h.refs.company_wall_id}`, { name: 'Renamed' })).statusCode).toBe(404);
    expect((await h.api('GET', `/walls/${h.refs.company_wall_id}`)).json()).toMatchObject({ data: { name: 'Company' } });
  });

  it("creates bots with the customer app icon as default avatar and keeps them out of /users (spec: Bot user)", async () => {
    h = harness();
    const res = await h.api('POST', '/bots', { name: 'Kudos Bot' });
    expect(res.statusCode).toBe(201);
    const bot = (res.json() as { data: { id: number; avatar_url: string } }).data;
    expect(bot.avatar_url).toMatch(/^https:\/\//);
    const seeded = ((await h.api('GET', `/bots/${h.refs.bot_user_id}`)).json() as { data: { avatar_url: string } }).data;
    expect(bot.avatar_url).toBe(seeded.avatar_url);
    expect((await h.api('GET', `/users/${bot.id}`)).statusCode).toBe(404);
    const bots = ((await h.api('GET', '/bots')).json() as List<{ id: number }>).data.map((b) => b.id);
    expect(bots).toEqual([h.refs.bot_user_id, bot.id]);
  });

  it('updates a bot name and avatar, and answers 404 for a user who is not a bot (spec: Bots)', async () => {
    h = harness();
    const res = await h.api('PUT', `/bots/${h.refs.bot_user_id}`, { name: 'Renamed Bot', avatar_url: 'https://cdn.example/bot.png' });
    expect((res.json() as { data: unknown }).data).toMatchObject({ id: h.refs.bot_user_id, name: 'Renamed Bot', avatar_url: 'https://cdn.example/bot.png' });
    expect((await h.api('GET', `/bots/${h.refs.employee_ids[0]}`)).statusCode).toBe(404);
    expect((await h.api('PUT', `/bots/${h.refs.employee_ids[0]}`, { name: 'x' })).statusCode).toBe(404);
    const bad = await h.api('POST', '/bots', { avatar_url: 'https://cdn.example/bot.png' });
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { message: string }).message).toMatch(/^name/);
  });

  it('describes the calling token for any valid token, whatever its scopes (spec: Other endpoints that exist)', async () => {
    h = harness();
    const token = await h.tokenWith([], { expires_at: '2027-01-01T00:00:00+01:00' });
    const res = await h.api('GET', '/token', undefined, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { name: 't-', scopes: [], expires_at: '2027-01-01T00:00:00+01:00' } });
    expect(res.body).not.toContain(token);
  });

  it('lists the active locales with the default (read:locales)', async () => {
    h = harness();
    expect((await h.api('GET', '/locales')).json()).toEqual({ data: { locales: { en: 'English', de: 'Deutsch' }, default: 'en' } });
    const token = await h.tokenWith(['read:users']);
    expect((await h.api('GET', '/locales', undefined, token)).statusCode).toBe(403);
  });
});
