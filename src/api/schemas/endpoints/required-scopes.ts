import type { AnyEndpoint } from '../endpoint';

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return value !== '';
}

/**
 * The scopes a request to `endpoint` needs, given its JSON body: the endpoint's scope plus each
 * conditional scope whose `field` the body carries (spec: Posts — `write:media` with `media_ids`).
 * Empty for "any valid token" and for incoming webhooks.
 *
 * @example
 * requiredScopes(endpoints['posts.create'], { body: 'x', media_ids: [4] }) // ['write:posts', 'write:media']
 */
export function requiredScopes(endpoint: AnyEndpoint, body?: unknown): string[] {
  const scopes = endpoint.scope ? [endpoint.scope] : [];
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  for (const conditional of endpoint.conditionalScopes ?? []) {
    if (conditional.field && isPresent(fields[conditional.field])) scopes.push(conditional.scope);
  }
  return scopes;
}
