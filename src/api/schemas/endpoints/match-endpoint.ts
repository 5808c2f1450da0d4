import type { AnyEndpoint, HttpMethod } from '../endpoint';
import { endpointList } from './catalog';

/** A concrete request resolved to its endpoint definition, with the path parameters (decoded). */
export interface EndpointMatch {
  endpoint: AnyEndpoint;
  params: Record<string, string>;
}

/** Matches concrete paths against a list of endpoints. */
export interface EndpointMatcher {
  /** The endpoint for `method` + `path`, or undefined. */
  match(method: string, path: string): EndpointMatch | undefined;
  /** The methods some endpoint accepts on `path` (empty for an unknown path): for 405 answers. */
  methodsFor(path: string): HttpMethod[];
}

const API_PREFIX = '/api/open/v1';

interface CompiledRoute {
  endpoint: AnyEndpoint;
  segments: readonly string[];
}

/** `/api/open/v1/walls/3/posts/?x=1` and `/walls/3/posts` both become [walls, 3, posts]. */
function splitPath(path: string): string[] | undefined {
  let bare = path.split(/[?#]/, 1)[0] ?? '';
  if (bare === API_PREFIX || bare.startsWith(`${API_PREFIX}/`)) bare = bare.slice(API_PREFIX.length);
  const segments = bare.split('/').filter((s) => s !== '');
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

function matchSegments(route: CompiledRoute, segments: readonly string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of route.segments.entries()) {
    const given = segments[i] as string;
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params[name] = given;
    else if (part !== given) return undefined;
  }
  return params;
}

/** Literal segments win over placeholders, whatever the catalogue order. */
function placeholderCount(route: CompiledRoute): number {
  return route.segments.filter((s) => s.startsWith('{')).length;
}

/** Builds a matcher over `list` (pure: the sandbox, the proxy and tests may pass their own list). */
export function createEndpointMatcher(list: readonly AnyEndpoint[]): EndpointMatcher {
  const routes: CompiledRoute[] = list
    .map((endpoint) => ({ endpoint, segments: splitPath(endpoint.path) ?? [] }))
    .sort((a, b) => placeholderCount(a) - placeholderCount(b));
  const candidates = (path: string): EndpointMatch[] => {
    const segments = splitPath(path);
    if (!segments) return [];
    return routes.flatMap((route) => {
      const params = matchSegments(route, segments);
      return params ? [{ endpoint: route.endpoint, params }] : [];
    });
  };
  return {
    match(method, path) {
      const upper = method.toUpperCase();
      return candidates(path).find((c) => c.endpoint.method === upper);
    },
    methodsFor(path) {
      return [...new Set(candidates(path).map((c) => c.endpoint.method))];
    },
  };
}

const catalogueMatcher = createEndpointMatcher(endpointList);

/**
 * The catalogue endpoint for a concrete request, with its path parameters, or undefined.
 * `path` is relative to `/api/open/v1` (a leading `/api/open/v1` and a query string are ignored).
 *
 * @example
 * matchEndpoint('PUT', '/walls/3/posts/9') // { endpoint: endpoints['posts.update'], params: { wall_id: '3', id: '9' } }
 */
export function matchEndpoint(method: string, path: string): EndpointMatch | undefined {
  return catalogueMatcher.match(method, path);
}

/** The methods the catalogue accepts on a concrete path (for 405 answers). */
export function allowedMethods(path: string): HttpMethod[] {
  return catalogueMatcher.methodsFor(path);
}
