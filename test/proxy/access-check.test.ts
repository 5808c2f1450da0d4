import { describe, expect, it } from 'vitest';
import { checkAccess, holdsEveryScope } from '../../src/proxy/access-check';
import { PLATFORM_SCOPES } from '../../src/proxy/platform-scopes';
import type { ProxyCaller } from '../../src/proxy/proxy-keys';

const caller = (scopes: string[] | 'all', tenants: string[] | 'all' = 'all'): ProxyCaller => ({
  name: 'k',
  scopes: scopes === 'all' ? 'all' : new Set(scopes),
  tenants: tenants === 'all' ? 'all' : new Set(tenants),
});

describe('checkAccess', () => {
  it('lets a key with the endpoint scope through, naming the endpoint', () => {
    expect(checkAccess(caller(['read:walls']), { tenant: 't', method: 'get', path: '/walls/3' })).toEqual({
      ok: true,
      endpointId: 'walls.get',
      usesTokenBudget: true,
    });
  });

  it('refuses a missing scope and names it', () => {
    const decision = checkAccess(caller(['read:posts']), { tenant: 't', method: 'DELETE', path: '/walls/3/posts/9' });
    expect(decision).toMatchObject({ ok: false, reason: 'scope', missing: ['write:posts'] });
  });

  it('asks for write:media only when the post body carries media_ids (spec: Posts)', () => {
    const poster = caller(['write:posts']);
    expect(checkAccess(poster, { tenant: 't', method: 'POST', path: '/walls/3/posts', body: { body: 'x' } }).ok).toBe(true);
    expect(checkAccess(poster, { tenant: 't', method: 'POST', path: '/walls/3/posts', body: { body: 'x', media_ids: [] } }).ok).toBe(true);
    expect(checkAccess(poster, { tenant: 't', method: 'POST', path: '/walls/3/posts', body: { body: 'x', media_ids: [4] } })).toMatchObject({
      ok: false,
      missing: ['write:media'],
    });
  });

  it('lets any key call an endpoint that needs only a valid token (spec: Other endpoints: GET /token)', () => {
    expect(checkAccess(caller(['read:walls']), { tenant: 't', method: 'GET', path: '/token' }).ok).toBe(true);
  });

  it('does not count incoming webhooks against the token budget (spec: Incoming webhooks)', () => {
    expect(checkAccess(caller(['read:walls']), { tenant: 't', method: 'POST', path: '/incoming/abc' })).toMatchObject({ ok: true, usesTokenBudget: false });
  });

  it('refuses an unknown path or method unless the key holds every scope', () => {
    for (const [method, path] of [
      ['GET', '/brand-new'],
      ['PATCH', '/walls/3'],
    ] as const) {
      expect(checkAccess(caller(['read:walls']), { tenant: 't', method, path })).toMatchObject({ ok: false, reason: 'unknown_scope' });
      expect(checkAccess(caller('all'), { tenant: 't', method, path })).toMatchObject({ ok: true, endpointId: undefined });
      expect(checkAccess(caller([...PLATFORM_SCOPES]), { tenant: 't', method, path }).ok).toBe(true);
    }
  });

  it('refuses a tenant the key is not for before looking at scopes', () => {
    expect(checkAccess(caller('all', ['acme']), { tenant: 'globex', method: 'GET', path: '/walls' })).toMatchObject({ ok: false, reason: 'tenant' });
    expect(checkAccess(caller('all', ['acme']), { tenant: 'acme', method: 'GET', path: '/walls' }).ok).toBe(true);
  });
});

describe('holdsEveryScope', () => {
  it('is true for * and for the full list, false when one scope is missing', () => {
    expect(holdsEveryScope(caller('all'))).toBe(true);
    expect(holdsEveryScope(caller([...PLATFORM_SCOPES]))).toBe(true);
    expect(holdsEveryScope(caller(PLATFORM_SCOPES.slice(1)))).toBe(false);
  });
});
