import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiForbiddenError,
  ApiHttpError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnauthorizedError,
  ApiValidationError,
  parseFailingField,
  parseMissingScope,
  redactPath,
} from '../../../src/api/errors';
import { API, json, platformDouble, TOKEN, testEndpoints as ep } from './platform-double';

/** Every failure is checked for the request it names and for the token it must not carry. */
function expectSafe(error: unknown, method: string, path: string, status: number | undefined): void {
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError).toMatchObject({ method, path, platformStatus: status });
  const visible = `${apiError.message} ${JSON.stringify(apiError)} ${String(apiError.stack)}`;
  expect(visible).not.toContain(TOKEN);
  expect(JSON.stringify(apiError)).toContain(path);
}

async function failure(status: number, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const { client, on } = platformDouble({ retry: { attempts: 1 } });
  on('GET', `${API}/things/5`, () => json(status, body, headers));
  return client.call(ep.get, { params: { id: 5 } }).catch((error: unknown) => error);
}

describe('errors from statuses (spec: Errors)', () => {
  it('maps 401 to ApiUnauthorizedError', async () => {
    const error = await failure(401, { error: 'unauthorized', message: `Token ${TOKEN} is inactive` });
    expect(error).toBeInstanceOf(ApiUnauthorizedError);
    expectSafe(error, 'GET', `${API}/things/5`, 401);
  });

  it('maps 403 to ApiForbiddenError with the missing scope parsed from the message', async () => {
    const error = await failure(403, { error: 'forbidden', message: 'This action requires the scope read:things.' });
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ code: 'api_forbidden', missingScope: 'read:things' });
    expectSafe(error, 'GET', `${API}/things/5`, 403);
  });

  it('maps a 403 without a scope in its message (feature disabled) to ApiForbiddenError without missingScope', async () => {
    const error = await failure(403, { error: 'forbidden', message: 'Achievements are disabled' });
    expect(error).toMatchObject({ code: 'api_forbidden', missingScope: undefined });
  });

  it('maps 404 with no body to ApiNotFoundError', async () => {
    const error = await failure(404, '');
    expect(error).toBeInstanceOf(ApiNotFoundError);
    expectSafe(error, 'GET', `${API}/things/5`, 404);
  });

  it('maps 422 to ApiValidationError with the failing row field parsed', async () => {
    const error = await failure(422, { error: 'validation_error', message: 'The awards.1.user_id must be an employee.' });
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ code: 'api_validation', field: 'awards.1.user_id' });
    expectSafe(error, 'GET', `${API}/things/5`, 422);
  });

  it('maps 429 to ApiRateLimitedError carrying Retry-After in ms', async () => {
    const error = await failure(429, '', { 'retry-after': '7' });
    expect(error).toBeInstanceOf(ApiRateLimitedError);
    expect(error).toMatchObject({ code: 'api_rate_limited', retryAfterMs: 7_000 });
    expectSafe(error, 'GET', `${API}/things/5`, 429);
  });

  it('maps 5xx to ApiServerError', async () => {
    const error = await failure(502, 'Bad gateway');
    expect(error).toBeInstanceOf(ApiServerError);
    expectSafe(error, 'GET', `${API}/things/5`, 502);
  });

  it('maps another unexpected status to ApiHttpError', async () => {
    const error = await failure(409, { message: 'conflict' });
    expect(error).toBeInstanceOf(ApiHttpError);
    expectSafe(error, 'GET', `${API}/things/5`, 409);
  });

  it('maps a refused connection to ApiNetworkError that was not sent', async () => {
    const { client, on } = platformDouble({ retry: { attempts: 1 } });
    on('GET', `${API}/things/5`, () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    const error = await client.call(ep.get, { params: { id: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ code: 'api_network', requestSent: false });
    expectSafe(error, 'GET', `${API}/things/5`, undefined);
  });

  it('maps a headers timeout to ApiTimeoutError', async () => {
    const { client, pool } = platformDouble({ retry: { attempts: 1 } });
    pool.intercept({ method: 'GET', path: `${API}/things/5` }).replyWithError(new undiciErrors.HeadersTimeoutError());
    const error = await client.call(ep.get, { params: { id: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ code: 'api_timeout', phase: 'headers' });
    expectSafe(error, 'GET', `${API}/things/5`, undefined);
  });

  it('never shows an incoming-webhook token or a query string in the path of an error', async () => {
    const { client, on } = platformDouble({ retry: { attempts: 1 } });
    on(
      'POST',
      (p) => p.startsWith(`${API}/incoming/`),
      () => json(422, { message: 'text is required' }),
    );
    const error = await client
      .call(ep.incoming, { params: { token: 'whk_secret_abc' }, body: { text: 'x' }, query: { sig: 'q' } as never })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(JSON.stringify(error)).not.toContain('whk_secret_abc');
    expect((error as Error).message).not.toContain('whk_secret_abc');
    expect((error as ApiError).path).toBe(`${API}/incoming/[redacted]`);
  });
});

describe('message parsing', () => {
  it('finds the scope a 403 names', () => {
    expect(parseMissingScope('Missing scope: write:posts')).toBe('write:posts');
    expect(parseMissingScope('The token needs read:calendar_entries')).toBe('read:calendar_entries');
    expect(parseMissingScope('Forbidden')).toBeUndefined();
  });

  it('finds the field a 422 names in its usual forms', () => {
    expect(parseFailingField('awards.0.department_id is not one of the user departments')).toBe('awards.0.department_id');
    expect(parseFailingField('The body field is required.')).toBe('body');
    expect(parseFailingField('bot_user_id: not a bot')).toBe('bot_user_id');
    expect(parseFailingField('Invalid', { media_ids: ['too many'] })).toBe('media_ids');
    expect(parseFailingField('Something went wrong')).toBeUndefined();
    expect(parseFailingField('Validation failed: check the input')).toBeUndefined();
  });

  it('redacts only the token of an incoming webhook path, whatever separator ends it, and keeps the rest readable', () => {
    expect(redactPath('/incoming/SeCrEt\\..\\..\\_sandbox\\reset')).toBe('/incoming/[redacted]\\..\\..\\_sandbox\\reset');
    expect(redactPath('/incoming/SeCrEt%5c..%2F_sandbox')).toBe('/incoming/[redacted]%5c..%2F_sandbox');
    expect(redactPath('/walls/..%2Fincoming%2FSeCrEt')).toBe('/walls/..%2Fincoming%2F[redacted]');
    // a dot segment where the token would be is no token: the attempt stays visible
    expect(redactPath('/incoming/..\\..\\_sandbox\\reset')).toBe('/incoming/..\\..\\_sandbox\\reset');
  });

  it('redacts the token segment of an incoming webhook path and drops the query', () => {
    expect(redactPath('/api/open/v1/incoming/abc123?x=1')).toBe('/api/open/v1/incoming/[redacted]');
    expect(redactPath('/api/open/v1/walls/3/posts?since=2030')).toBe('/api/open/v1/walls/3/posts');
  });
});
