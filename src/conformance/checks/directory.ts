import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError } from '../../api/errors';
import { skip, type ConformanceCheck } from '../check';
import { describeError, expectEqual, expectInteger, expectThat, show } from '../expect';
import { firstOrSkip, orSkipWhenForbidden, rawGet } from './support';

const GROUP_TYPES = ['department', 'profession', 'custom'];

const usersRegistered: ConformanceCheck = {
  id: 'users.registered-only',
  title: 'users lists only registered users, each with first_name, last_name and title',
  section: 'User; Users',
  readOnly: true,
  async run(api) {
    const res = await orSkipWhenForbidden(api.users.list({ per_page: 50 }), 'GET /users');
    firstOrSkip(res.data, 'users');
    for (const user of res.data) {
      const raw = user as Record<string, unknown>;
      expectThat(typeof raw.first_name === 'string' && typeof raw.last_name === 'string', `user ${user.id}: first_name/last_name missing`);
      expectThat('title' in raw && (raw.title === null || typeof raw.title === 'string'), `user ${user.id}: title is ${show(raw.title)}`);
      // registered users accepted their invite: pending invitations carry no registered_at
      expectThat(typeof user.registered_at === 'string', `user ${user.id} is listed without registered_at (a pending invite?)`);
      for (const group of user.groups) expectThat(typeof group.is_manager === 'boolean', `user ${user.id}: group ${group.id} lacks is_manager`);
    }
  },
};

const usersHidden: ConformanceCheck = {
  id: 'users.hidden',
  title: 'pending invitations and deactivated accounts are neither listed nor found by id',
  section: 'User (registered users only)',
  readOnly: true,
  async run(api, ctx) {
    // only the sandbox can name them: the API, by this very rule, never shows them
    if (!ctx.sandbox) skip('needs the sandbox to name a pending and a deactivated user');
    const everyone = ((await ctx.sandbox.send('GET', '/users')) as { data: { id: number; status?: string }[] }).data;
    const hidden = everyone.filter((u) => u.status === 'pending' || u.status === 'deactivated').map((u) => u.id);
    if (hidden.length === 0) skip('the sandbox holds no pending or deactivated user');
    const listed = new Set<number>();
    for await (const user of api.users.all()) listed.add(user.id);
    for (const id of hidden) {
      expectThat(!listed.has(id), `GET /users lists user ${id}, who is not registered`);
      const res = await rawGet(api, `/users/${id}`);
      expectEqual(res.status, 404, `GET /users/${id} of a user who is not registered`);
    }
  },
};

const usersGroupFilter: ConformanceCheck = {
  id: 'users.group-filter',
  title: 'group_id on users lists only members of that group',
  section: 'Users (group_id)',
  readOnly: true,
  async run(api) {
    const groups = await orSkipWhenForbidden(api.groups.list({ per_page: 1, type: 'department' }), 'GET /groups');
    const group = firstOrSkip(groups.data, 'departments');
    const members = await orSkipWhenForbidden(api.users.list({ per_page: 50, group_id: group.id }), 'GET /users');
    for (const user of members.data) {
      expectThat(
        user.groups.some((g) => g.id === group.id),
        `GET /users?group_id=${group.id} lists user ${user.id}, not a member`,
      );
    }
    const all = await api.users.list({ per_page: 1 });
    expectThat(Number(members.meta?.total) < Number(all.meta?.total), `GET /users?group_id=${group.id} lists every user`);
  },
};

const groupsManagers: ConformanceCheck = {
  id: 'groups.managers',
  title: 'groups carry managers and never a system group',
  section: 'Group; Groups',
  readOnly: true,
  async run(api) {
    const res = await orSkipWhenForbidden(api.groups.list({ per_page: 50 }), 'GET /groups');
    firstOrSkip(res.data, 'groups');
    for (const group of res.data) {
      expectThat(GROUP_TYPES.includes(group.type), `group ${group.id} has type ${show(group.type)}`);
      expectThat(Array.isArray(group.managers), `group ${group.id} has no managers array`);
      for (const manager of group.managers) expectInteger(manager.id, `group ${group.id}: managers[].id`);
    }
  },
};

const groupsTypeFilter: ConformanceCheck = {
  id: 'groups.type-filter',
  title: 'the type filter on groups returns only groups of that type',
  section: 'Groups (type)',
  readOnly: true,
  async run(api) {
    const all = await orSkipWhenForbidden(api.groups.list({ per_page: 50 }), 'GET /groups');
    for (const type of ['department', 'profession'] as const) {
      const filtered = await api.groups.list({ per_page: 50, type });
      for (const group of filtered.data) expectEqual(group.type, type, `GET /groups?type=${type}: group ${group.id} type`);
      const expected = all.data.some((g) => g.type === type);
      expectThat(!expected || filtered.data.length > 0, `GET /groups?type=${type} is empty, but /groups lists one`);
    }
  },
};

const wallsGroups: ConformanceCheck = {
  id: 'walls.groups',
  title: 'walls carry the groups they are scoped to, embedded without managers',
  section: 'Wall; Group (embedded)',
  readOnly: true,
  async run(api) {
    const res = await orSkipWhenForbidden(api.walls.list({ per_page: 50 }), 'GET /walls');
    firstOrSkip(res.data, 'walls');
    for (const wall of res.data) {
      expectThat(Array.isArray(wall.groups), `wall ${wall.id} has no groups array`);
      for (const group of wall.groups as Record<string, unknown>[]) {
        expectThat(!('managers' in group), `wall ${wall.id}: embedded group ${show(group.id)} carries managers`);
      }
    }
  },
};

type Probe = [string, (api: IntrabotApi) => Promise<unknown>];

async function firstThen(list: Promise<{ data: { id: number }[] }>, get: (id: number) => Promise<unknown>): Promise<unknown> {
  const first = (await list).data[0];
  return first === undefined ? undefined : get(first.id);
}

const SINGLE_PROBES: Probe[] = [
  ['GET /walls/{id}', (api) => firstThen(api.walls.list({ per_page: 1 }), (id) => api.walls.get(id))],
  ['GET /users/{id}', (api) => firstThen(api.users.list({ per_page: 1 }), (id) => api.users.get(id))],
  ['GET /groups/{id}', (api) => firstThen(api.groups.list({ per_page: 1 }), (id) => api.groups.get(id))],
  ['GET /bots/{id}', (api) => firstThen(api.bots.list({ per_page: 1 }), (id) => api.bots.get(id))],
  ['GET /announcements/{id}', (api) => firstThen(api.announcements.list({ per_page: 1 }), (id) => api.announcements.get(id))],
  ['GET /events/{id}', (api) => firstThen(api.events.list({ per_page: 1, status: 'all' }), (id) => api.events.get(id))],
  ['GET /calendar-entries/{id}', (api) => firstThen(api.calendarEntries.list({ per_page: 1, status: 'all' }), (id) => api.calendarEntries.get(id))],
  ['GET /achievements/{id}', (api) => firstThen(api.achievements.list({ per_page: 1 }), (id) => api.achievements.get(id))],
  ['GET /stats/users', (api) => api.stats.users()],
  ['GET /stats/engagement', (api) => api.stats.engagement()],
  ['GET /stats/adoption', (api) => api.stats.adoption()],
  ['GET /stats/content', (api) => api.stats.content()],
  ['GET /locales', (api) => api.locales.get()],
];

const schemasParse: ConformanceCheck = {
  id: 'resources.schemas',
  title: "single resources and statistics parse with the client's schemas",
  section: 'Resources and their fields',
  readOnly: true,
  async run(api) {
    const problems: string[] = [];
    let checked = 0;
    for (const [what, probe] of SINGLE_PROBES) {
      try {
        if ((await probe(api)) !== undefined) checked += 1;
      } catch (error) {
        if (error instanceof ApiForbiddenError) continue;
        problems.push(`${what}: ${describeError(error)}`);
      }
    }
    expectThat(problems.length === 0, `${problems.length} answer(s) differ: ${problems.slice(0, 3).join('; ')}`);
    if (checked === 0) skip('the token may read none of the resources');
  },
};

export const directoryChecks: ConformanceCheck[] = [
  usersRegistered,
  usersHidden,
  usersGroupFilter,
  groupsManagers,
  groupsTypeFilter,
  wallsGroups,
  schemasParse,
];
