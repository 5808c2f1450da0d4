import type { Page } from '../../api/caller';
import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError } from '../../api/errors';
import { endpoints } from '../../api/schemas/endpoints';
import { skip, type ConformanceCheck, type ConformanceContext } from '../check';
import { describeError, expectAbsoluteUrl, expectEqual, expectInteger, expectThat, show } from '../expect';
import { listTargets } from './list-targets';
import { hostNow, isoDate, linkPath, orSkipWhenForbidden, rawGet } from './support';

const SECTION = 'Pagination';
const META_COUNTS = ['current_page', 'last_page', 'per_page', 'total'] as const;

/**
 * The envelope of page 1 (spec: Pagination): absolute `first`/`last`, `prev` null, `next` null
 * exactly when there is no second page, integer `meta`. `from`/`to` are allowed to be null on an
 * empty page: a paginator has no first or last item to number there.
 */
export function checkFirstPage(page: Page<unknown>, what: string): void {
  expectThat(Array.isArray(page.data), `${what}: data is not an array`);
  const links = page.links;
  expectThat(links !== undefined && links !== null, `${what}: links is missing`);
  expectAbsoluteUrl(links.first, `${what}: links.first`);
  expectAbsoluteUrl(links.last, `${what}: links.last`);
  expectEqual(links.prev, null, `${what}: links.prev on page 1`);
  const meta = page.meta;
  expectThat(meta !== undefined && meta !== null, `${what}: meta is missing`);
  for (const key of META_COUNTS) expectInteger(meta[key], `${what}: meta.${key}`);
  for (const key of ['from', 'to'] as const) {
    if (page.data.length === 0 && meta[key] === null) continue;
    expectInteger(meta[key], `${what}: meta.${key}`);
  }
  expectEqual(meta.current_page, 1, `${what}: meta.current_page`);
  if ((meta.last_page as number) > 1) expectAbsoluteUrl(links.next, `${what}: links.next with ${show(meta.last_page)} pages`);
  else expectEqual(links.next, null, `${what}: links.next on the only page`);
}

const envelope: ConformanceCheck = {
  id: 'pagination.envelope',
  title: 'every list endpoint answers the list envelope: absolute links, prev null on page 1, integer meta',
  section: SECTION,
  readOnly: true,
  async run(api) {
    const { targets, unresolved } = await listTargets(api);
    const problems: string[] = [];
    let checked = 0;
    for (const { endpoint, params } of targets) {
      try {
        const page = (await api.call(endpoint, { params, query: { page: 1 } })) as Page<unknown>;
        checkFirstPage(page, `GET ${endpoint.path}`);
        checked += 1;
      } catch (error) {
        if (error instanceof ApiForbiddenError) continue;
        problems.push(describeError(error));
      }
    }
    expectThat(problems.length === 0, `${problems.length} list(s) differ: ${problems.slice(0, 3).join('; ')}`);
    if (checked === 0) skip(`the token may read none of the lists (not resolvable: ${unresolved.join(', ') || 'none'})`);
  },
};

const perPageCap: ConformanceCheck = {
  id: 'pagination.per-page-cap',
  title: 'per_page above 50 is capped at 50',
  section: `${SECTION} (per_page maximum 50)`,
  readOnly: true,
  async run(api) {
    const page = await orSkipWhenForbidden(api.users.list({ per_page: 100 }), 'GET /users');
    expectEqual(page.meta?.per_page, 50, 'meta.per_page when asking for 100');
    const total = Number(page.meta?.total);
    expectEqual(page.data.length, Math.min(50, total), 'items on a page of per_page=100');
  },
};

const perPageDefault: ConformanceCheck = {
  id: 'pagination.per-page-default',
  title: 'per_page defaults to 25',
  section: `${SECTION} (per_page default 25)`,
  readOnly: true,
  async run(api) {
    const page = await orSkipWhenForbidden(api.users.list(), 'GET /users');
    expectEqual(page.meta?.per_page, 25, 'meta.per_page without per_page');
    expectEqual(page.data.length, Math.min(25, Number(page.meta?.total)), 'items on a default page');
  },
};

/** A small list with at least two items: groups, else walls. */
async function smallList(api: IntrabotApi): Promise<{ path: string; total: number }> {
  for (const path of ['/groups', '/walls', '/users']) {
    const res = await rawGet(api, path, { per_page: 1 });
    const total = (res.body as { meta?: { total?: unknown } } | null)?.meta?.total;
    if (res.status === 200 && typeof total === 'number' && total >= 2) return { path, total };
  }
  return skip('no readable list holds two items');
}

const followNext: ConformanceCheck = {
  id: 'pagination.follow-next',
  title: 'following links.next reaches the last page, where next is null, with every item once',
  section: `${SECTION} (follow next until null)`,
  readOnly: true,
  async run(api) {
    const { path, total } = await smallList(api);
    const perPage = Math.max(1, Math.ceil(total / 3));
    let link: string | null = null;
    let body = (await rawGet(api, path, { per_page: perPage })).body as Page<{ id: number }>;
    const ids = new Set<number>();
    for (let pages = 1; ; pages += 1) {
      for (const item of body.data) ids.add(item.id);
      link = body.links?.next ?? null;
      if (link === null) break;
      expectThat(pages < 10, `${path}: still a next link after 10 pages of ${perPage}`);
      expectAbsoluteUrl(link, `${path}: links.next`);
      expectThat(new URL(link).origin === api.root.origin, `${path}: links.next points at another host: ${link}`);
      body = (await rawGet(api, linkPath(api, link))).body as Page<{ id: number }>;
      expectAbsoluteUrl(body.links?.prev, `${path}: links.prev on page ${pages + 1}`);
    }
    expectEqual(body.meta?.current_page, body.meta?.last_page, `${path}: meta.current_page of the page whose next is null`);
    expectEqual(ids.size, total, `${path}: distinct items read across pages (meta.total)`);
  },
};

const since: ConformanceCheck = {
  id: 'pagination.since',
  title: 'since returns only records created after it',
  section: `${SECTION} (since)`,
  readOnly: true,
  async run(api, ctx: ConformanceContext) {
    const baseline = await orSkipWhenForbidden(api.users.list({ per_page: 50 }), 'GET /users');
    const total = Number(baseline.meta?.total);
    const past = await api.users.list({ per_page: 1, since: '1970-01-01' });
    expectEqual(past.meta?.total, total, 'meta.total with since=1970-01-01');
    const tomorrow = isoDate((await hostNow(ctx)) + 2 * 86_400_000);
    const future = await api.users.list({ per_page: 1, since: tomorrow });
    expectEqual(future.meta?.total, 0, `meta.total with since=${tomorrow}`);
    const stamps = [...new Set(baseline.data.map((u) => u.created_at))].sort((a, b) => Date.parse(a) - Date.parse(b));
    if (stamps.length < 2) return;
    const cut = stamps[Math.floor((stamps.length - 1) / 2)]!;
    const after = await api.users.list({ per_page: 50, since: cut });
    for (const user of after.data) {
      expectThat(Date.parse(user.created_at) > Date.parse(cut), `user ${user.id} created ${user.created_at} is listed with since=${cut}`);
    }
    const newerOnPage = baseline.data.filter((u) => Date.parse(u.created_at) > Date.parse(cut)).length;
    expectThat(Number(after.meta?.total) >= newerOnPage, `since=${cut} lists ${show(after.meta?.total)} users, but ${newerOnPage} newer ones exist`);
    expectThat(Number(after.meta?.total) < total, `since=${cut} still lists all ${total} users`);
  },
};

const STATUS_LISTS = ['announcements.list', 'events.list', 'calendarEntries.list', 'posts.list'] as const;

const unknownStatus: ConformanceCheck = {
  id: 'pagination.unknown-status',
  title: 'an unknown status on announcements, events, calendar entries and posts is a 422 validation_error',
  section: `${SECTION} (status)`,
  readOnly: true,
  async run(api) {
    const walls = await orSkipWhenForbidden(api.walls.list({ per_page: 1 }), 'GET /walls');
    const wallId = walls.data[0]?.id;
    let checked = 0;
    for (const id of STATUS_LISTS) {
      const endpoint = endpoints[id];
      if (id === 'posts.list' && wallId === undefined) continue;
      const path = endpoint.path.replace('{wall_id}', String(wallId));
      const res = await rawGet(api, path, { status: 'bogus' });
      if (res.status === 403) continue;
      expectEqual(res.status, 422, `GET ${endpoint.path}?status=bogus status`);
      expectEqual((res.body as { error?: unknown } | null)?.error, 'validation_error', `GET ${endpoint.path}?status=bogus error`);
      checked += 1;
    }
    if (checked === 0) skip('the token may read none of the status lists');
  },
};

export const paginationChecks: ConformanceCheck[] = [envelope, perPageCap, perPageDefault, followNext, since, unknownStatus];
