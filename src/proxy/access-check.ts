import { matchEndpoint, requiredScopes } from '../api/schemas/endpoints';
import { PLATFORM_SCOPES } from './platform-scopes';
import type { ProxyCaller } from './proxy-keys';

export type AccessDecision =
  | { ok: true; endpointId: string | undefined; usesTokenBudget: boolean }
  | { ok: false; reason: 'tenant' | 'scope' | 'unknown_scope'; message: string; missing: string[] };

export interface AccessRequest {
  tenant: string;
  method: string;
  /** Relative to `/api/open/v1`, without the query string. */
  path: string;
  /** The JSON body when there is one: some scopes depend on it (spec: Posts, `media_ids`). */
  body?: unknown;
}

/** True when the caller holds `['*']` or, listed one by one, every scope the platform names. */
export function holdsEveryScope(caller: ProxyCaller): boolean {
  if (caller.scopes === 'all') return true;
  const held = caller.scopes;
  return PLATFORM_SCOPES.every((scope) => held.has(scope));
}

function holds(caller: ProxyCaller, scope: string): boolean {
  return caller.scopes === 'all' || caller.scopes.has(scope);
}

/**
 * Whether `caller` may send this request, decided before anything reaches the platform. The scope
 * comes from the endpoint catalogue; a request the catalogue does not know has no known scope, and
 * only a key holding every scope may send it (the platform is still the judge of the token's own
 * scopes). Incoming webhooks need no scope: their URL token authenticates (spec: Incoming webhooks).
 *
 * @example
 * checkAccess(caller, { tenant: 'default', method: 'POST', path: '/walls/3/posts', body: { body: 'x', media_ids: [1] } })
 * // { ok: false, reason: 'scope', missing: ['write:media'], ... } for a key with write:posts only
 */
export function checkAccess(caller: ProxyCaller, request: AccessRequest): AccessDecision {
  if (caller.tenants !== 'all' && !caller.tenants.has(request.tenant)) {
    return { ok: false, reason: 'tenant', missing: [], message: `proxy key ${caller.name} may not use tenant ${request.tenant}` };
  }
  const match = matchEndpoint(request.method, request.path);
  if (!match) {
    if (holdsEveryScope(caller)) return { ok: true, endpointId: undefined, usesTokenBudget: true };
    return {
      ok: false,
      reason: 'unknown_scope',
      missing: [],
      message: `the scope of ${request.method.toUpperCase()} ${request.path} is unknown; only a proxy key holding every scope may call it`,
    };
  }
  const missing = requiredScopes(match.endpoint, request.body).filter((scope) => !holds(caller, scope));
  if (missing.length > 0) {
    return { ok: false, reason: 'scope', missing, message: `proxy key ${caller.name} lacks the scope ${missing.join(', ')}` };
  }
  return { ok: true, endpointId: match.endpoint.id, usesTokenBudget: match.endpoint.auth === 'bearer' };
}
