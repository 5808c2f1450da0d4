import { describe, expect, it } from 'vitest';
import { ForeignLinkError } from '../../../src/api/errors';
import { nextPageUrl, pageInfo } from '../../../src/api/pagination';
import { API, json, ORIGIN, platformDouble, testEndpoints as ep } from './platform-double';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const listPath = `${API}/walls/3/things`;
const link = (query: string) => `${ORIGIN}${listPath}?${query}`;

describe('pagination (spec: Pagination)', () => {
  it('follows links.next to the last page, asking for 50 per page', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${listPath}?per_page=50`, () =>
      json(200, { data: [{ id: 1 }, { id: 2 }], links: { next: link('per_page=50&page=2') }, meta: { current_page: 1, last_page: 3 } }),
    );
    on('GET', `${listPath}?per_page=50&page=2`, () =>
      json(200, { data: [{ id: 3 }], links: { next: link('per_page=50&page=3') }, meta: { current_page: 2, last_page: 3 } }),
    );
    on('GET', `${listPath}?per_page=50&page=3`, () => json(200, { data: [{ id: 4 }], links: { next: null }, meta: { current_page: 3, last_page: 3 } }));
    const items = await collect(client.paginate(ep.list, { params: { wall_id: 3 } }));
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(seen).toHaveLength(3);
  });

  it('passes since (and a chosen per_page) through to the platform', async () => {
    const { client, on, seen } = platformDouble();
    on(
      'GET',
      (p) => p.startsWith(listPath),
      () => json(200, { data: [], links: { next: null }, meta: {} }),
    );
    await collect(client.paginate(ep.list, { params: { wall_id: 3 }, query: { since: '2030-01-01T00:00:00+01:00', per_page: 10 } as never }));
    const url = new URL(`${ORIGIN}${seen[0]?.path}`);
    expect(url.searchParams.get('since')).toBe('2030-01-01T00:00:00+01:00');
    expect(url.searchParams.get('per_page')).toBe('10');
  });

  it('refuses a next link on another host and never sends the token there', async () => {
    const { client, on, agent } = platformDouble();
    const elsewhere: unknown[] = [];
    agent
      .get('https://evil.example')
      .intercept({ path: () => true, method: 'GET' })
      .reply((opts) => {
        elsewhere.push(opts.headers);
        return { statusCode: 200, data: '{"data":[]}' };
      });
    on('GET', `${listPath}?per_page=50`, () => json(200, { data: [{ id: 1 }], links: { next: 'https://evil.example/api/open/v1/walls/3/things?page=2' } }));
    const seenItems: number[] = [];
    const run = (async () => {
      for await (const item of client.paginate(ep.list, { params: { wall_id: 3 } })) seenItems.push(item.id);
    })();
    await expect(run).rejects.toBeInstanceOf(ForeignLinkError);
    await expect(run).rejects.toMatchObject({ code: 'api_foreign_link', linkOrigin: 'https://evil.example' });
    expect(seenItems).toEqual([1]);
    expect(elsewhere).toHaveLength(0);
  });

  it('iterates an award list that carries only meta by page number', async () => {
    const { client, on, seen } = platformDouble();
    const awards = `${API}/achievements/2/awards`;
    on('GET', `${awards}?per_page=50`, () => json(200, { data: [{ id: 1 }, { id: 2 }], meta: { current_page: 1, per_page: 2, total: 5 } }));
    on('GET', `${awards}?per_page=50&page=2`, () => json(200, { data: [{ id: 3 }, { id: 4 }], meta: { current_page: 2, per_page: 2, total: 5 } }));
    on('GET', `${awards}?per_page=50&page=3`, () => json(200, { data: [{ id: 5 }], meta: { current_page: 3, per_page: 2, total: 5 } }));
    const items = await collect(client.paginate(ep.awards, { params: { id: 2 } }));
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toHaveLength(3);
  });

  it('reads the non-paginated user achievements in one request, without per_page', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/users/8/achievements`, () => json(200, { data: [{ id: 1 }, { id: 2 }] }));
    const items = await collect(client.paginate(ep.userAchievements, { params: { id: 8 } }));
    expect(items.map((i) => i.id)).toEqual([1, 2]);
    expect(seen.map((s) => s.path)).toEqual([`${API}/users/8/achievements`]);
  });

  it('follows pages of a raw path for `intrabot api --paginate`', async () => {
    const { client, on } = platformDouble();
    on('GET', `${API}/groups?per_page=50`, () => json(200, { data: [{ id: 1 }], links: { next: `${ORIGIN}${API}/groups?per_page=50&page=2` } }));
    on('GET', `${API}/groups?per_page=50&page=2`, () => json(200, { data: [{ id: 2 }], links: { next: null } }));
    expect(await collect(client.paginateRequest({ path: '/groups' }))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('refuses a page that repeats one already read instead of looping', async () => {
    const { client, on } = platformDouble();
    on('GET', `${listPath}?per_page=50`, () => json(200, { data: [{ id: 1 }], links: { next: link('per_page=50') } }));
    await expect(collect(client.paginate(ep.list, { params: { wall_id: 3 } }))).rejects.toMatchObject({ code: 'api_bad_response' });
  });
});

describe('nextPageUrl', () => {
  const base = new URL(`${ORIGIN}/api/open/v1`);
  const current = new URL(`${ORIGIN}/api/open/v1/things?per_page=50&page=2`);
  const page = (data: unknown[], rest: object) => pageInfo({ data, ...rest });

  it('stops when links.next is null even if meta would say more', () => {
    expect(nextPageUrl(page([1], { links: { next: null }, meta: { current_page: 2, last_page: 9 } }), current, base)).toBeNull();
  });

  it('resolves a relative next link against the current page', () => {
    expect(nextPageUrl(page([1], { links: { next: '/api/open/v1/things?page=3' } }), current, base)?.href).toBe(`${ORIGIN}/api/open/v1/things?page=3`);
  });

  it('uses last_page when there are no links', () => {
    expect(nextPageUrl(page([1], { meta: { current_page: 2, last_page: 3 } }), current, base)?.searchParams.get('page')).toBe('3');
    expect(nextPageUrl(page([1], { meta: { current_page: 3, last_page: 3 } }), current, base)).toBeNull();
  });

  it('uses total and per_page when there is no last_page', () => {
    expect(nextPageUrl(page([1], { meta: { current_page: 2, per_page: 50, total: 100 } }), current, base)).toBeNull();
    expect(nextPageUrl(page([1], { meta: { current_page: 2, per_page: 50, total: 101 } }), current, base)?.searchParams.get('page')).toBe('3');
  });

  it('stops on an empty page without links', () => {
    expect(nextPageUrl(page([], { meta: { current_page: 2 } }), current, base)).toBeNull();
  });

  it('refuses a next link outside the API root on the same host: the token goes with it', () => {
    for (const next of [`${ORIGIN}/_sandbox/reset`, '/api/open/v1/../../admin', `${ORIGIN}/api/open/v10/things`, '/api/open/v1/%252e%252e/x']) {
      expect(() => nextPageUrl(page([1], { links: { next } }), current, base), next).toThrow(ForeignLinkError);
    }
  });

  it('refuses a link to another port of the same host', () => {
    expect(() => nextPageUrl(page([1], { links: { next: 'https://acme.example:8443/api/open/v1/things?page=3' } }), current, base)).toThrow(ForeignLinkError);
  });
});
