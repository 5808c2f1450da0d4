import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowedMethods, createEndpointMatcher, endpointList, endpoints, matchEndpoint, requiredScopes } from '../../../src/api/schemas/endpoints';

const spec = readFileSync(new URL('../../fixtures/spec/open-api.md', import.meta.url), 'utf8');

/** Every `| METHOD | /path |` row and `| GET /stats/... |` row of the spec's endpoint tables. */
function specEndpointRows(): { method: string; path: string }[] {
  const rows: { method: string; path: string }[] = [];
  for (const line of spec.split('\n')) {
    const table = /^\| (GET|POST|PUT|DELETE|PATCH|PUT or PATCH|PATCH or PUT) \| (\/[^ |]*) \|/.exec(line);
    if (table) {
      const [, methods = '', path = ''] = table;
      for (const method of methods.split(' or ')) rows.push({ method, path });
    }
    const inline = /^\| (GET) (\/stats\/[^ |]+) \|/.exec(line);
    if (inline) rows.push({ method: inline[1] ?? '', path: inline[2] ?? '' });
  }
  return rows;
}

const catalogue = new Set(endpointList.map((e) => `${e.method} ${e.path}`));

describe('endpoint catalogue', () => {
  it('finds the endpoint tables in the spec (the parser is not silently empty)', () => {
    const rows = specEndpointRows();
    expect(rows.length).toBeGreaterThanOrEqual(60);
    expect(rows).toContainEqual({ method: 'PATCH', path: '/achievements/{id}' });
    expect(rows).toContainEqual({ method: 'GET', path: '/stats/engagement' });
  });

  it('holds every method and path of the spec endpoint tables (spec: Endpoints)', () => {
    const missing = specEndpointRows().filter((r) => !catalogue.has(`${r.method} ${r.path}`));
    expect(missing).toEqual([]);
  });

  it('holds the incoming webhook trigger with the token in the URL (spec: Incoming webhooks)', () => {
    const send = endpoints['incomingWebhooks.send'];
    expect(`${send.method} ${send.path}`).toBe('POST /incoming/{token}');
    expect(send.auth).toBe('url-token');
    expect(send.scope).toBeNull();
  });

  it('holds every "other endpoint" of the spec and the paths DESIGN.md chose', () => {
    const chosen = [
      'GET /forms',
      'GET /forms/{id}',
      'GET /forms/{id}/responses',
      'GET /form-responses/{id}',
      'GET /journeys',
      'GET /staff-cards',
      'GET /handbooks',
      'POST /handbooks',
      'GET /courses',
      'POST /courses',
      'GET /articles',
      'POST /articles',
      'GET /articles/{id}',
      'GET /certificates',
      'POST /certificates',
      'GET /certificate-types',
      'POST /certificate-types',
      'GET /calendar-event-types',
      'POST /calendar-event-types',
      'GET /locales',
      'GET /org-chart',
      'GET /manager-hub',
      'GET /incoming-webhooks',
      'POST /incoming-webhooks',
      'GET /incoming-webhooks/{id}',
      'PUT /incoming-webhooks/{id}',
      'POST /incoming-webhooks/{id}/revoke',
      'POST /users',
      'DELETE /users/{id}',
      'POST /users/{id}/avatar',
      'POST /groups',
      'POST /users/{id}/messages',
      'POST /chat-messages/{id}/pin',
      'DELETE /chat-messages/{id}/pin',
      'POST /feedback',
      'GET /token',
      'POST /notifications',
      'GET /confirmations',
      'GET /announcements/{id}/confirmations',
      'PATCH /achievements/{id}',
      'PUT /achievements/{id}',
      'PATCH /calendar-entries/{id}',
      'PUT /calendar-entries/{id}',
      'GET /stats/users',
      'GET /stats/engagement',
      'GET /stats/adoption',
      'GET /stats/content',
    ];
    expect(chosen.filter((c) => !catalogue.has(c))).toEqual([]);
  });

  it('marks our own choices as not shown by the spec', () => {
    expect(endpoints['incomingWebhooks.create'].shown).toBe(false);
    expect(endpoints['users.create'].shown).toBe(false);
    expect(endpoints['posts.create'].shown).toBe(true);
  });

  it('has unique ids and unique method+path pairs', () => {
    expect(new Set(endpointList.map((e) => e.id)).size).toBe(endpointList.length);
    expect(catalogue.size).toBe(endpointList.length);
    for (const [key, def] of Object.entries(endpoints)) expect(def.id).toBe(key);
  });

  it('lists every path placeholder in params, in order', () => {
    for (const def of endpointList) {
      const placeholders = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(def.params, def.id).toEqual(placeholders);
    }
  });

  it('asks read scopes for reads and write scopes for writes (spec: Authentication)', () => {
    for (const def of endpointList.filter((e) => e.scope !== null)) {
      // media has only write:media (spec: Media)
      const expected = def.method === 'GET' && def.id !== 'media.get' ? /^read:/ : /^write:/;
      expect(def.scope, def.id).toMatch(expected);
    }
    expect(endpoints['posts.create'].conditionalScopes).toEqual([{ scope: 'write:media', when: expect.any(String), field: 'media_ids' }]);
    expect(endpoints['token.get'].scope).toBeNull();
    expect(endpoints['feedback.send'].scope).toBeNull();
  });

  it('uses only scopes the spec names', () => {
    const named = new Set(/Scopes named: ([^\n]+)\./.exec(spec)?.[1]?.split(', ') ?? []);
    expect(named.size).toBeGreaterThan(40);
    const used = endpointList.flatMap((e) => [e.scope, ...(e.conditionalScopes ?? []).map((c) => c.scope)]).filter((s) => s !== null);
    expect(used.filter((s) => !named.has(s))).toEqual([]);
  });
});

describe('matchEndpoint', () => {
  it('finds the definition and the decoded params of a concrete path', () => {
    const match = matchEndpoint('PUT', '/walls/3/posts/9');
    expect(match?.endpoint.id).toBe('posts.update');
    expect(match?.params).toEqual({ wall_id: '3', id: '9' });
  });

  it('ignores the /api/open/v1 prefix, a trailing slash and the query string', () => {
    expect(matchEndpoint('get', '/api/open/v1/walls/3/posts/?page=2')?.endpoint.id).toBe('posts.list');
  });

  it('tells apart paths that differ only by a trailing segment', () => {
    expect(matchEndpoint('GET', '/webhooks/5/secret')?.endpoint.id).toBe('webhooks.secret');
    expect(matchEndpoint('GET', '/webhooks/5')?.endpoint.id).toBe('webhooks.get');
    expect(matchEndpoint('GET', '/users/5/achievements')?.endpoint.id).toBe('achievements.userAchievements');
    expect(matchEndpoint('DELETE', '/chat-messages/8/pin')?.endpoint.id).toBe('chatMessages.unpin');
  });

  it('decodes a url-encoded token of an incoming webhook', () => {
    expect(matchEndpoint('POST', '/incoming/ab%2Bc')?.params).toEqual({ token: 'ab+c' });
  });

  it('answers undefined for an unknown path or method, and lists the methods a path accepts', () => {
    expect(matchEndpoint('GET', '/nothing/here')).toBeUndefined();
    expect(matchEndpoint('DELETE', '/walls/3')).toBeUndefined();
    expect(allowedMethods('/calendar-entries/4').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'PUT']);
  });

  it('prefers a literal segment over a placeholder whatever the order of the list', () => {
    const byId = { ...endpoints['walls.get'], id: 'a.byId', path: '/things/{id}', params: ['id'] };
    const literal = { ...endpoints['walls.get'], id: 'a.mine', path: '/things/mine', params: [] };
    expect(createEndpointMatcher([byId, literal]).match('GET', '/things/mine')?.endpoint.id).toBe('a.mine');
  });
});

describe('requiredScopes', () => {
  it('adds write:media to a post create only when media_ids is non-empty (spec: Posts)', () => {
    expect(requiredScopes(endpoints['posts.create'], { body: 'x' })).toEqual(['write:posts']);
    expect(requiredScopes(endpoints['posts.create'], { body: 'x', media_ids: [] })).toEqual(['write:posts']);
    expect(requiredScopes(endpoints['posts.create'], { body: 'x', media_ids: [4] })).toEqual(['write:posts', 'write:media']);
  });

  it('needs no scope for GET /token and the incoming trigger', () => {
    expect(requiredScopes(endpoints['token.get'])).toEqual([]);
    expect(requiredScopes(endpoints['incomingWebhooks.send'], { text: 'x' })).toEqual([]);
  });
});
