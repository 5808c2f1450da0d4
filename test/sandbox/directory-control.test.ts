import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError } from '../../src/api/errors';
import { failure, useHttpSandbox } from './http-harness';

describe('sandbox directory control API and people views', () => {
  const h = useHttpSandbox();

  it('registers a pending user, who then appears in /users, and fires user.registered with the User (spec: Events)', async () => {
    const id = h.refs.pending_user_id;
    await expect(h.api.users.get(id)).rejects.toBeInstanceOf(ApiNotFoundError);
    await h.control.advance(60);
    await h.platform.register(id);
    const user = await h.api.users.get(id);
    expect(user.registered_at).toBe('2026-11-22T09:01:00+01:00');
    const registered = h.events.filter((e) => e.event === 'user.registered');
    expect(registered).toHaveLength(1);
    expect(registered[0]?.payload).toMatchObject({ id, email: 'nina.neumann@sandbox.example', type: 'default', registered_at: user.registered_at });
  });

  it('refuses to register a user who is not pending, firing nothing', async () => {
    // the control API's own statuses: raw HTTP
    expect((await h.raw('POST', `/_sandbox/users/${h.refs.employee_ids[0]}/register`, { body: {} })).status).toBe(422);
    expect(h.events.filter((e) => e.event === 'user.registered')).toHaveLength(0);
    expect((await h.raw('POST', '/_sandbox/users/9999/register', { body: {} })).status).toBe(404);
  });

  it('fires onboarding.completed carrying onboarding_completed_at, once (spec: Events)', async () => {
    const id = h.refs.employee_ids[2] as number;
    await h.platform.completeOnboarding(id);
    const fired = h.events.filter((e) => e.event === 'onboarding.completed');
    expect(fired).toHaveLength(1);
    expect(fired[0]?.payload).toMatchObject({ id, onboarding_completed_at: '2026-11-22T09:00:00+01:00', user: { id } });
    expect((await h.raw('POST', `/_sandbox/users/${id}/onboarding`, { body: {} })).status).toBe(422);
    expect(h.events.filter((e) => e.event === 'onboarding.completed')).toHaveLength(1);
  });

  it('lists every user with kind and status for tests, filterable', async () => {
    type Listed = { data: { id: number; kind: string; status: string }[] };
    const all = ((await h.control.send('GET', '/users')) as Listed).data;
    expect(all.map((u) => u.id)).toEqual(
      expect.arrayContaining([h.refs.pending_user_id, h.refs.bot_user_id, h.refs.kiosk_user_id, h.refs.deactivated_user_id]),
    );
    const bots = ((await h.control.send('GET', '/users?kind=bot')) as Listed).data;
    expect(bots.map((u) => u.id)).toEqual([h.refs.bot_user_id]);
    const pending = ((await h.control.send('GET', '/users?status=pending')) as Listed).data;
    expect(pending).toEqual([expect.objectContaining({ id: h.refs.pending_user_id, status: 'pending' })]);
    expect((await h.raw('GET', '/_sandbox/users?kind=robot', { token: null })).status).toBe(422);
  });

  it('answers the control API to loopback callers only', async () => {
    // a caller from another address cannot be made over loopback HTTP: this one stays on inject
    const res = await h.sandbox.app.inject({ method: 'GET', url: '/_sandbox/users', remoteAddress: '10.1.2.3' });
    expect(res.statusCode).toBe(403);
    expect((await h.raw('GET', '/_sandbox/users', { token: null })).status).toBe(200);
  });

  it('lists staff cards of registered employees with their department (read:staff_cards)', async () => {
    const cards = await h.api.staffCards.list({ per_page: 50 });
    expect(cards.meta!.total).toBe(39);
    const ada = cards.data.find((c) => c.user_id === h.refs.managers.Engineering);
    expect(ada?.department).toMatchObject({ name: 'Engineering' });
    expect(cards.data.map((c) => c.user_id)).not.toContain(h.refs.pending_user_id);
    const error = await failure((await h.clientWith(['read:users'])).staffCards.list());
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:staff_cards' });
  });

  it('builds the org chart from department managers (read:org_chart)', async () => {
    const nodes = (await h.api.orgChart.list({ per_page: 50 })).data;
    const parent = new Map(nodes.map((n) => [n.id, n.parent_id]));
    expect(nodes.filter((n) => n.parent_id === null)).toHaveLength(1);
    expect(parent.get(h.refs.managers.Sales as number)).toBe(h.refs.admin_user_id);
    // a plain employee reports to a department head, who reports to the root
    const boss = parent.get(h.refs.employee_ids[0] as number) as number;
    expect(h.refs.manager_ids).toContain(boss);
  });

  it("shows the manager hub of the token's user with today's birthdays and anniversaries (read:managerhub)", async () => {
    // the client's schema of the hub is loose (spec: not shown), so the test names the fields it reads
    type Hub = { user: { id: number }; birthdays_today: { id: number }[]; anniversaries_today: { id: number }[]; pending_invitations: { id: number }[] };
    const hub = (await h.api.managerHub.get()) as unknown as Hub;
    expect(hub.user.id).toBe(h.refs.admin_user_id);
    expect(hub.birthdays_today.map((u) => u.id)).toEqual(h.refs.birthday_today_user_ids);
    expect(hub.anniversaries_today.map((u) => u.id)).toEqual(h.refs.anniversary_today_user_ids);
    expect(hub.pending_invitations.map((u) => u.id)).toEqual([h.refs.pending_user_id]);
  });
});
