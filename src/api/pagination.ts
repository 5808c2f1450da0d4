import { apiPathProblem } from './api-path';
import { isUnderRoot } from './api-url';
import { ApiBadResponseError, ForeignLinkError } from './errors';

/**
 * Pagination (spec: Pagination): follow `links.next` until it is null. Award lists may carry only
 * `meta` (spec: "The award lists return `meta` with at least current_page, per_page and total"),
 * so without `links` the next page is found by page number. A `next` link on another origin is
 * refused, so the token is never sent anywhere but the configured host.
 */

/** We ask for the maximum the spec allows (default 25, max 50): half the requests. */
export const DEFAULT_PER_PAGE = 50;

/** One page as the client parsed it. */
export interface PageBody<T> {
  data: T[];
  links?: { next?: string | null | undefined } | null | undefined;
  meta?: Record<string, unknown> | null | undefined;
}

/** What a page says about the next one. `next` is undefined when the page has no `links` at all. */
export interface PageInfo {
  next: string | null | undefined;
  currentPage: number | undefined;
  lastPage: number | undefined;
  perPage: number | undefined;
  total: number | undefined;
  count: number;
}

function integer(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

export function pageInfo(page: PageBody<unknown>): PageInfo {
  const meta = page.meta ?? {};
  return {
    next: page.links ? (page.links.next ?? null) : undefined,
    currentPage: integer(meta.current_page),
    lastPage: integer(meta.last_page),
    perPage: integer(meta.per_page),
    total: integer(meta.total),
    count: page.data.length,
  };
}

/** `query` with `per_page` set to the default when the caller did not choose one. */
export function withDefaultPerPage<Q extends Record<string, unknown>>(query: Q | undefined): Q & { per_page: unknown } {
  const given = query ?? ({} as Q);
  return { ...given, per_page: given.per_page ?? DEFAULT_PER_PAGE };
}

/** `url` with `page` set to `page`, every other parameter kept. */
export function withPage(url: URL, page: number): URL {
  const next = new URL(url);
  next.searchParams.set('page', String(page));
  return next;
}

/**
 * Resolves a `next` link and refuses one on another origin than `base`, or outside its API root
 * (the token goes with it: a link to `/admin` on the same host is not followed either).
 */
export function followLink(link: string, current: URL, base: URL): URL {
  const next = new URL(link, current);
  if (next.origin !== base.origin) {
    throw new ForeignLinkError({ method: 'GET', path: current.pathname }, next.origin, base.origin);
  }
  if (!isUnderRoot(next.pathname, base.pathname) || apiPathProblem(next.pathname) !== undefined) {
    throw new ForeignLinkError({ method: 'GET', path: current.pathname }, `${next.origin}${next.pathname}`, base.href);
  }
  return next;
}

/** The page after `current`, or null when `current` was the last. Pure. */
export function nextPageUrl(info: PageInfo, current: URL, base: URL): URL | null {
  if (info.next !== undefined) return info.next === null ? null : followLink(info.next, current, base);
  if (info.count === 0) return null;
  const page = info.currentPage ?? integer(current.searchParams.get('page')) ?? 1;
  if (info.lastPage !== undefined) return page < info.lastPage ? withPage(current, page + 1) : null;
  const perPage = info.perPage ?? integer(current.searchParams.get('per_page'));
  if (perPage === undefined) return null;
  if (info.total !== undefined) return page * perPage < info.total ? withPage(current, page + 1) : null;
  return info.count < perPage ? null : withPage(current, page + 1);
}

/**
 * Every item of every page from `first` on. `fetchPage` sends one GET and parses the page; it is
 * only called for URLs on `base`'s origin.
 */
export async function* paginatePages<T>(first: URL, base: URL, fetchPage: (url: URL) => Promise<PageBody<T>>): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let url: URL | null = first;
  while (url) {
    if (seen.has(url.href)) {
      throw new ApiBadResponseError({ method: 'GET', path: url.pathname }, 'links.next', 'links.next repeats a page already read');
    }
    seen.add(url.href);
    const page: PageBody<T> = await fetchPage(url);
    yield* page.data;
    url = nextPageUrl(pageInfo(page), url, base);
  }
}
