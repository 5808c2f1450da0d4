import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './directory-harness';

type List<T> = { data: T[]; meta: Record<string, number> };

describe('sandbox directory control API and people views', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('registers a pending user, who then appears in /users, and fires user.registered with the User (spec: Events)', async () => {
    h = harness();
    const id = h.refs.pending_user_id;
    expect((await h.api('GET', `/users/${id}`)).statusCode).toBe(404);
    h.clock.advance(60_000);
    const res = await h.control('POST', `/users/${id}/register`);
    expect(res.statusCode).toBe(200);
    const user = ((await h.api('GET', `/users/${id}`)).json() as { data: { registered_at: string } }).data;
    expect(user.registered_at).toBe('2026-11-22T09:01:00+01:00');
    const registered = h.events.filter((e) => e.event === 'user.registered');
    expect(registered).toHaveLength(1);
    expect(registered[0]?.payload).toMatchObject({ id, email: 'nina.neumann@sandbox.example', type: 'default', registered_at: user.registered_at });
  });

  it('refuses to register a user who is not pending, firing nothing', async () => {
    h = harness();
    const res = await h.control('POST', `/users/${h.refs.employee_ids[0]}/register`);
    expect(res.statusCode).toBe(422);
    expect(h.events.filter((e) => e.event === 'user.registered')).toHaveLength(0);
    expect((await h.control('POST', '/users/9999/register')).statusCode).toBe(404);
  });

  it('fires onboarding.completed carrying onboarding_completed_at, once (spec: Events)', async () => {
    h = harness();
    const id = h.refs.employee_ids[2];
    expect((await h.control('POST', `/users/${id}/onboarding`)).statusCode).toBe(200);
    const fired = h.events.filter((e) => e.event === 'onboarding.completed');
    expect(fired).toHaveLength(1);
    expect(fired[0]?.payload).toMatchObject({ id, onboarding_completed_at: '2026-11-22T09:00:00+01:00', user: { id } });
    expect((await h.control('POST', `/users/${id}/onboarding`)).statusCode).toBe(422);
    expect(h.events.filter((e) => e.event === 'onboarding.completed')).toHaveLength(1);
  });

  it('lists every user with kind and status for tests, filterable', async () => {
    h = harness();
    const all = ((await h.control('GET', '/users')).json() as { data: { id: number }[] }).data;
    expect(all.map((u) => u.id)).toEqual(expect.arrayContaining([h.refs.pending_user_id, h.refs.bot_user_id, h.refs.kiosk_user_id, h.refs.deactivated_user_id]));
    const bots = ((await h.control('GET', '/users?kind=bot')).json() as { data: { id: number; kind: string }[] }).data;
    expect(bots.map((u) => u.id)).toEqual([h.refs.bot_user_id]);
    const pending = ((await h.control('GET', '/users?status=pending')).json() as { data: { id: number; status: string }[] }).data;
    expect(pending).toEqual([expect.objectContaining({ id: h.refs.pending_user_id, status: 'pending' })]);
    expect((await h.control('GET', '/users?kind=robot')).statusCode).toBe(422);
  });

  it('answers the control API to loopback callers only', async () => {
    h = harness();
    const res = await h.app.inject({ method: 'GET', url: '/_sandbox/users', remoteAddress: '10.1.2.3' });
    expect(res.statusCode).toBe(403);
  });

  it('lists staff cards of registered employees with their department (read:staff_cards)', async () => {
    h = harness();
    const cards = ((await h.api('GET', '/staff-cards?per_page=50')).json() as List<{ user_id: number; department: { name: string } | null }>);
    expect(cards.meta.total).toBe(39);
    const ada = cards.data.find((c) => c.user_id === h.refs.managers.Engineering);
    expect(ada?.department?.name).toBe('Engineering');
    expect(cards.data.map((c) => c.user_id)).not.toContain(h.refs.pending_user_id);
    const token = await h.tokenWith(['read:users']);
    expect((await h.api('GET', '/staff-cards', undefined, token)).statusCode).toBe(403);
  });

  it('builds the org chart from department managers (read:org_chart)', async () => {
    h = harness();
    const nodes = ((await h.api('GET', '/org-chart?per_page=50')).json() as List<{ id: number; parent_id: number | null }>).data;
    const parent = new Map(nodes.map((n) => [n.id, n.parent_id]));
    expect(nodes.filter((n) => n.parent_id === null)).toHaveLength(1);
    expect(parent.get(h.refs.managers.Sales as number)).toBe(h.refs.admin_user_id);
    // a plain employee reports to a department head, who reports to the root
    const boss = parent.get(h.refs.employee_ids[0] as number) as number;
    expect(h.refs.manager_ids).toContain(boss);
  });

  it("shows the manager hub of the token's user with today's birthdays and anniversaries (read:managerhub)", async () => {
    h = harness();
    const hub = ((await h.api('GET', '/manager-hub')).json() as { data: { user: { id: number }; birthdays_today: { id: number }[]; anniversaries_today: { id: number }[]; pending_invitations: { id: number }[] } }).data;
    expect(hub.user.id).toBe(h.refs.admin_user_id);
    expect(hub.birthdays_today.map((u) => u.id)).toEqual(h.refs.birthday_today_user_ids);
    expect(hub.anniversaries_today.map((u) => u.id)).toEqual(h.refs.anniversary_today_user_ids);
    expect(hub.pending_invitations.map((u) => u.id)).toEqual([h.refs.pending_user_id]);
  });
});
