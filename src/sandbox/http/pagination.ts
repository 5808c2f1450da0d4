import type { FastifyRequest } from 'fastify';
import { validationError } from './sandbox-error';
import { parseIso } from '../time';

/** spec: Pagination — `page` 1-based, `per_page` default 25 and at most 50, `since` on `created_at`. */
export interface PageQuery {
  page: number;
  perPage: number;
  since: number | undefined;
}

export function readPageQuery(query: Record<string, unknown>, timeZone: string, defaultPerPage = 25): PageQuery {
  const page = positiveInt(query.page, 'page') ?? 1;
  const perPage = Math.min(positiveInt(query.per_page, 'per_page') ?? defaultPerPage, 50);
  let since: number | undefined;
  if (typeof query.since === 'string' && query.since !== '') {
    since = parseIso(query.since, timeZone);
    if (Number.isNaN(since)) throw validationError('since', 'must be an ISO 8601 date or datetime');
  }
  return { page, perPage, since };
}

function positiveInt(value: unknown, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw validationError(field, 'must be a positive integer');
  return n;
}

/** spec: Pagination — `status` = published (default) | draft | all; any other value gives 422. */
export function readStatus(query: Record<string, unknown>): 'published' | 'draft' | 'all' {
  const status = query.status ?? 'published';
  if (status === 'published' || status === 'draft' || status === 'all') return status;
  throw validationError('status', 'must be one of published, draft, all');
}

/** The absolute URL of the request with `page` replaced (links are absolute, spec: Pagination). */
function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/**
 * Whether a record created at `createdAtMs` is "created after" `since` (spec: Pagination). The platform
 * prints created_at to the second and a client passes the newest one back, so the comparison is at
 * that precision: otherwise that record would come back on every incremental sync.
 */
export function createdAfter(createdAtMs: number, since: number): boolean {
  return Math.floor(createdAtMs / 1000) * 1000 > since;
}

/**
 * Builds the list envelope `{ data, links, meta }` for already filtered and ordered `rows`,
 * applying `since` (on each row's `created_at`, epoch ms) and the page window.
 */
export function paginate<T extends { created_at: number }>(
  request: FastifyRequest,
  rows: readonly T[],
  query: PageQuery,
  serialize: (row: T) => unknown,
): { data: unknown[]; links: Record<string, string | null>; meta: Record<string, number | null> } {
  const { since } = query;
  const filtered = since === undefined ? rows : rows.filter((r) => createdAfter(r.created_at, since));
  const total = filtered.length;
  const lastPage = Math.max(1, Math.ceil(total / query.perPage));
  const start = (query.page - 1) * query.perPage;
  const slice = filtered.slice(start, start + query.perPage);
  return {
    data: slice.map(serialize),
    links: {
      first: pageUrl(request, 1),
      last: pageUrl(request, lastPage),
      prev: query.page > 1 ? pageUrl(request, Math.min(query.page - 1, lastPage)) : null,
      next: query.page < lastPage ? pageUrl(request, query.page + 1) : null,
    },
    meta: {
      current_page: query.page,
      last_page: lastPage,
      per_page: query.perPage,
      total,
      from: slice.length ? start + 1 : null,
      to: slice.length ? start + slice.length : null,
    },
  };
}
