import { checkApiPath, splitPath, type SplitPath } from '../api/api-path';
import { API_PREFIX } from '../api/api-url';

/**
 * `/t/acme/api/open/v1/walls?page=2` -> `{ pathname: '/walls', search: '?page=2' }`: the rest of the
 * caller's URL after the API prefix, as written (no decoding), fragment dropped. Not checked: the
 * audit line of a refused call shows what was asked.
 */
export function requestedPath(rawUrl: string): SplitPath {
  const at = rawUrl.indexOf(`${API_PREFIX}/`);
  return splitPath(at === -1 ? '/' : rawUrl.slice(at + API_PREFIX.length));
}

/**
 * The path the proxy forwards for a caller's raw URL, relative to the API root: read once, so the
 * scope check, the request sent and the audit line see the same path. A path that could leave
 * `/api/open/v1` under any reading (see `apiPathProblem`) throws `ApiPathError` (400, naming `path`).
 *
 * @example proxiedPath('/api/open/v1/walls?page=2') // { pathname: '/walls', search: '?page=2' }
 * @example proxiedPath('/api/open/v1/walls/..\\..\\_sandbox\\clock') // throws ApiPathError
 */
export function proxiedPath(rawUrl: string): SplitPath {
  const path = requestedPath(rawUrl);
  checkApiPath(path.pathname);
  return path;
}
