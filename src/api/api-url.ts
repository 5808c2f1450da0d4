import { ConfigError, InvalidInputError } from '../errors';
import { ApiPathError, checkApiPath, splitPath } from './api-path';

/** Every path of the spec is relative to `{base_url}/api/open/v1` (spec: Notation). */
export const API_PREFIX = '/api/open/v1';

/**
 * The API root of a customer host. The host may carry a path (a proxy's `/t/acme`); a base that
 * already ends in `/api/open/v1` is taken as is.
 *
 * @example apiRoot('https://acme.example').href // 'https://acme.example/api/open/v1'
 */
export function apiRoot(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError('baseUrl', 'baseUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('baseUrl', `baseUrl must use http or https, not ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(API_PREFIX) ? path : `${path}${API_PREFIX}`;
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * The URL of `path` under `root`. `path` is relative to the API root (`/walls/3/posts`), may repeat
 * the prefix (`/api/open/v1/walls`), and may carry its own query string.
 *
 * Whatever it is given, the answer's path is under `root`: a path that could leave it (`..`, `\`, an
 * encoded slash, in any encoding; see `apiPathProblem`) throws `ApiPathError`, naming `path`. The
 * platform token goes with the request, so this is the last door before it does.
 */
export function apiUrl(root: URL, path: string, query?: Record<string, unknown>): URL {
  const { pathname, search } = splitPath(path);
  const relative = pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`) ? pathname.slice(API_PREFIX.length) : pathname;
  checkApiPath(relative);
  const url = new URL(root);
  url.pathname = `${root.pathname}${relative.startsWith('/') || relative === '' ? '' : '/'}${relative}`;
  url.search = search;
  appendQuery(url, query);
  // the parser has the last word on what the path is: it must still be under the root
  if (url.origin !== root.origin || !isUnderRoot(url.pathname, root.pathname)) throw new ApiPathError('it resolves outside the API root');
  return url;
}

/** Whether `pathname` is `rootPath` or below it (`/api/open/v1`, `/api/open/v1/walls`; not `/api/open/v10`). */
export function isUnderRoot(pathname: string, rootPath: string): boolean {
  return pathname === rootPath || pathname.startsWith(`${rootPath.replace(/\/$/, '')}/`);
}

/**
 * Adds query parameters, dropping undefined and null. An array is sent comma-separated
 * (spec: Statistics, `group_ids` comma-separated): the platform reads no `key[]` form.
 */
export function appendQuery(url: URL, query: Record<string, unknown> | undefined): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      url.searchParams.set(key, value.map((item) => queryValue(key, item)).join(','));
    } else {
      url.searchParams.set(key, queryValue(key, value));
    }
  }
}

function queryValue(key: string, value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  throw new InvalidInputError(`query.${key}`, `query.${key}: must be a string, number, boolean or date`);
}
