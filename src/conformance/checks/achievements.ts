import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError, ApiNotFoundError } from '../../api/errors';
import { skip, type ConformanceCheck, type ConformanceContext } from '../check';
import { describeError, expectEqual, expectInteger, expectThat, show } from '../expect';
import { firstOrSkip, firstUserId, orSkipWhenForbidden, rawGet } from './support';

/** `items` ordered newest first by `created_at` (equal stamps in any order). */
export function expectNewestFirst(items: readonly { id: number; created_at: string }[], what: string): void {
  for (let i = 1; i < items.length; i += 1) {
    const before = items[i - 1]!;
    const item = items[i]!;
    expectThat(
      Date.parse(before.created_at) >= Date.parse(item.created_at),
      `${what}: ${before.id} (${before.created_at}) is listed before the newer ${item.id} (${item.created_at})`,
    );
  }
}

const userAchievementsUnpaginated: ConformanceCheck = {
  id: 'achievements.user-unpaginated',
  title: '/users/{id}/achievements answers { data: [...] } without pagination, published achievements only',
  section: 'Pagination (exception); Achievements',
  readOnly: true,
  async run(api) {
    const userId = await firstUserId(api);
    const res = await rawGet(api, `/users/${userId}/achievements`);
    if (res.status === 403) skip('GET /users/{id}/achievements answered 403 (scope missing or achievements disabled)');
    expectEqual(res.status, 200, `GET /users/${userId}/achievements status`);
    const body = res.body as Record<string, unknown> | null;
    expectThat(body !== null && Array.isArray(body.data), `GET /users/${userId}/achievements: data is not an array`);
    expectThat(!('links' in body) && !('meta' in body), `GET /users/${userId}/achievements carries pagination keys`);
    const awards = await api.achievements.userAchievements(userId);
    expectEqual(awards.length, (body.data as unknown[]).length, 'awards read by the typed client');
    for (const award of awards) {
      expectThat(award.achievement?.is_published !== false, `award ${award.id} is on a draft achievement`);
    }
  },
};

/** Kiosk and shadow users: every one the sandbox holds, else those on the first page of /users. */
async function kioskAndShadowIds(api: IntrabotApi, ctx: ConformanceContext): Promise<number[]> {
  const people = ctx.sandbox
    ? ((await ctx.sandbox.send('GET', '/users')) as { data: { id: number; type: string }[] }).data
    : (await api.users.list({ per_page: 50 })).data;
  return people.filter((u) => u.type === 'kiosk' || u.type === 'shadow').map((u) => u.id);
}

const userAchievementsOfNonEmployees: ConformanceCheck = {
  id: 'achievements.user-non-employee-404',
  title: '/users/{id}/achievements is a 404 for bot, kiosk and shadow users',
  section: 'Achievements (GET /users/{id}/achievements); Errors (404)',
  readOnly: true,
  async run(api, ctx) {
    const bots = await orSkipWhenForbidden(api.bots.list({ per_page: 1 }), 'GET /bots');
    const ids = [...bots.data.map((b) => b.id), ...(await kioskAndShadowIds(api, ctx))];
    if (ids.length === 0) skip('the host shows no bot, kiosk or shadow user');
    for (const id of ids) {
      let outcome: unknown;
      try {
        await api.achievements.userAchievements(id);
      } catch (error) {
        outcome = error;
      }
      if (outcome instanceof ApiForbiddenError) skip('GET /users/{id}/achievements answered 403 (scope missing or achievements disabled)');
      const got = outcome === undefined ? 'an answer with data' : describeError(outcome);
      expectThat(outcome instanceof ApiNotFoundError, `GET /users/${id}/achievements: expected 404, got ${got}`);
    }
  },
};

/** A published achievement with awards if there is one, else any. */
async function achievementWithAwards(api: IntrabotApi): Promise<number> {
  const list = await orSkipWhenForbidden(api.achievements.list({ per_page: 50 }), 'GET /achievements');
  return (list.data.find((a) => a.awarded_users_count > 0) ?? firstOrSkip(list.data, 'achievements')).id;
}

/** Read every award only when it takes a handful of requests (a real host paces at 60 a minute). */
const MAX_AWARDS_TO_ITERATE = 200;
const PAGES_TO_ITERATE = 4;

const awardsMeta: ConformanceCheck = {
  id: 'awards.meta',
  title: 'award lists carry meta with current_page, per_page and total, newest first, and the client reads every award',
  section: 'Pagination (award lists); Achievements',
  readOnly: true,
  async run(api) {
    const id = await achievementWithAwards(api);
    const res = await rawGet(api, `/achievements/${id}/awards`, { per_page: 2 });
    expectEqual(res.status, 200, `GET /achievements/${id}/awards status`);
    const meta = (res.body as { meta?: Record<string, unknown> } | null)?.meta;
    expectThat(meta !== undefined, `GET /achievements/${id}/awards has no meta`);
    for (const key of ['current_page', 'per_page', 'total']) expectInteger(meta[key], `GET /achievements/${id}/awards: meta.${key}`);
    expectEqual(meta.per_page, 2, `GET /achievements/${id}/awards?per_page=2: meta.per_page`);
    const total = meta.total as number;
    if (total > MAX_AWARDS_TO_ITERATE) return;
    // several pages even for a few awards: the client must walk them by page number (no links)
    const perPage = Math.max(1, Math.ceil(total / PAGES_TO_ITERATE));
    const awards = [];
    for await (const award of api.achievements.allAwards(id, { per_page: perPage })) {
      expectThat(award.user !== undefined, `award ${award.id} has no user embedded`);
      awards.push(award);
    }
    expectEqual(awards.length, total, `awards read across pages of ${perPage} (meta.total)`);
    expectNewestFirst(awards, `GET /achievements/${id}/awards`);
  },
};

const listOrderAndFilters: ConformanceCheck = {
  id: 'achievements.list',
  title: 'achievements list newest first, drafts included, and is_published, type and visibility filter it',
  section: 'Achievements (GET /achievements)',
  readOnly: true,
  async run(api) {
    const all = await orSkipWhenForbidden(api.achievements.list({ per_page: 50 }), 'GET /achievements');
    expectNewestFirst(all.data, 'GET /achievements');
    const filters = [
      { query: { is_published: true }, holds: (a: { is_published: boolean }) => a.is_published, what: 'is_published=true' },
      { query: { is_published: false }, holds: (a: { is_published: boolean }) => !a.is_published, what: 'is_published=false' },
      { query: { type: 'custom' as const }, holds: (a: { type: string }) => a.type === 'custom', what: 'type=custom' },
      { query: { visibility: 'public' as const }, holds: (a: { visibility: string }) => a.visibility === 'public', what: 'visibility=public' },
    ];
    for (const filter of filters) {
      const page = await api.achievements.list({ per_page: 50, ...filter.query });
      const stray = page.data.find((a) => !filter.holds(a));
      expectThat(stray === undefined, `GET /achievements?${filter.what} lists achievement ${show(stray?.id)} that does not match`);
      const expected = all.data.filter((a) => filter.holds(a)).length;
      const total = Number(all.meta?.total);
      if (total <= 50) expectEqual(page.meta?.total, expected, `meta.total of GET /achievements?${filter.what}`);
    }
  },
};

const confirmationsNewestFirst: ConformanceCheck = {
  id: 'confirmations.newest-first',
  title: 'every announcement confirmation is listed newest first',
  section: 'Announcements (GET /confirmations)',
  readOnly: true,
  async run(api) {
    const page = await orSkipWhenForbidden(api.confirmations.list({ per_page: 50 }), 'GET /confirmations');
    expectNewestFirst(page.data, 'GET /confirmations');
  },
};

export const achievementReadChecks: ConformanceCheck[] = [
  userAchievementsUnpaginated,
  userAchievementsOfNonEmployees,
  awardsMeta,
  listOrderAndFilters,
  confirmationsNewestFirst,
];
