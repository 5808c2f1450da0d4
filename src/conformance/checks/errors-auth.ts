import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError, ApiNotFoundError, ApiUnauthorizedError } from '../../api/errors';
import type { AnyEndpoint } from '../../api/schemas/endpoint';
import { endpoints } from '../../api/schemas/endpoints';
import { skip, type ConformanceCheck, type ConformanceContext } from '../check';
import { expectEqual, expectRejects, expectThat, show } from '../expect';
import { UNKNOWN_ID, rawGet } from './support';

const NOT_FOUND_PATHS = ['/walls', '/users', '/groups', '/events', '/announcements', '/bots'];

const notFound: ConformanceCheck = {
  id: 'errors.not-found',
  title: 'an unknown id is a 404 with an empty body',
  section: 'Errors (404)',
  readOnly: true,
  async run(api) {
    let checked = 0;
    for (const base of NOT_FOUND_PATHS) {
      const res = await rawGet(api, `${base}/${UNKNOWN_ID}`);
      if (res.status === 403) continue;
      expectEqual(res.status, 404, `GET ${base}/${UNKNOWN_ID} status`);
      expectEqual(res.body, null, `GET ${base}/${UNKNOWN_ID} body`);
      checked += 1;
    }
    if (checked === 0) skip('the token may read none of the resources');
    await expectRejects(api.walls.get(UNKNOWN_ID), ApiNotFoundError, 'the typed client on an unknown wall');
  },
};

/** A GET list endpoint without path parameters whose scope the token lacks. */
function endpointNeeding(scopes: readonly string[]): AnyEndpoint | undefined {
  const held = new Set(scopes);
  return Object.values(endpoints as Record<string, AnyEndpoint>).find(
    (e) => e.method === 'GET' && e.responseKind === 'list' && e.params.length === 0 && e.scope !== null && !held.has(e.scope),
  );
}

async function narrowClient(ctx: ConformanceContext): Promise<IntrabotApi> {
  if (ctx.narrow) return ctx.narrow;
  if (ctx.sandbox) return ctx.clientFor(await ctx.sandbox.createToken('conformance narrow', ['read:walls']));
  return skip('no narrow token given (--narrow-token)');
}

const missingScope: ConformanceCheck = {
  id: 'auth.missing-scope',
  title: 'a token lacking the scope gets a 403 forbidden naming the scope',
  section: 'Authentication 2; Errors (403)',
  readOnly: true,
  async run(_api, ctx) {
    const narrow = await narrowClient(ctx);
    const info = await narrow.token.get();
    const endpoint = endpointNeeding(info.scopes);
    if (!endpoint) skip('the narrow token holds every scope a list needs');
    const res = await rawGet(narrow, endpoint.path);
    expectEqual(res.status, 403, `GET ${endpoint.path} without ${endpoint.scope} status`);
    const body = res.body as { error?: unknown; message?: unknown } | null;
    expectEqual(body?.error, 'forbidden', `GET ${endpoint.path} without ${endpoint.scope} error`);
    const error = await expectRejects(narrow.call(endpoint), ApiForbiddenError, `GET ${endpoint.path} without ${endpoint.scope}`);
    expectEqual(error.missingScope, endpoint.scope ?? undefined, `the scope named by the 403 message ${show(body?.message)}`);
  },
};

const INVALID_TOKEN = 'svc_conformance_no_such_token_000000';

const invalidToken: ConformanceCheck = {
  id: 'auth.invalid-token',
  title: 'an invalid token is a 401 unauthorized',
  section: 'Authentication 5; Errors (401)',
  readOnly: true,
  async run(_api, ctx) {
    const stranger = ctx.clientFor(INVALID_TOKEN);
    const res = await rawGet(stranger, '/walls');
    expectEqual(res.status, 401, 'GET /walls with an invalid token status');
    expectEqual((res.body as { error?: unknown } | null)?.error, 'unauthorized', 'GET /walls with an invalid token error');
    await expectRejects(stranger.walls.list(), ApiUnauthorizedError, 'the typed client with an invalid token');
  },
};

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const rateHeaders: ConformanceCheck = {
  id: 'limits.rate-headers',
  title: 'answers carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  section: 'Limits (rate limit headers)',
  readOnly: true,
  async run(api) {
    const answers = [
      { what: 'GET /token (200)', res: await rawGet(api, '/token') },
      { what: `GET /walls/${UNKNOWN_ID} (404)`, res: await rawGet(api, `/walls/${UNKNOWN_ID}`) },
      { what: 'GET /events?status=bogus (422)', res: await rawGet(api, '/events', { status: 'bogus' }) },
    ];
    for (const { what, res } of answers) {
      for (const name of RATE_HEADERS) {
        expectThat(/^\d+$/.test(res.headers[name] ?? ''), `${what}: header ${name} is ${show(res.headers[name])}, expected an integer`);
      }
      const limit = Number(res.headers['x-ratelimit-limit']);
      expectThat(Number(res.headers['x-ratelimit-remaining']) <= limit, `${what}: X-RateLimit-Remaining above X-RateLimit-Limit ${limit}`);
    }
  },
};

const SCOPE_PATTERN = /^(read|write):[a-z_]+$/;

const tokenInfo: ConformanceCheck = {
  id: 'token.info',
  title: 'GET /token answers the name, scopes and expiry of the calling token',
  section: 'Other endpoints that exist (GET /token)',
  readOnly: true,
  async run(api) {
    const info = await api.token.get();
    expectThat(info.name.length > 0, 'GET /token: name is empty');
    for (const scope of info.scopes) expectThat(SCOPE_PATTERN.test(scope), `GET /token: ${show(scope)} is not a scope name`);
    expectThat('expires_at' in info, 'GET /token: expires_at is missing');
  },
};

export const errorAndAuthChecks: ConformanceCheck[] = [notFound, missingScope, invalidToken, rateHeaders, tokenInfo];
