import { describe, expect, it } from 'vitest';
import { ApiBadResponseError, InvalidTokenError } from '../../../src/api/errors';
import { ApiClient } from '../../../src/api/client';
import { INTRABOT_VERSION } from '../../../src/api/version';
import { InvalidInputError } from '../../../src/errors';
import { AdjustableClock } from '../../../src/clock';
import { API, json, ORIGIN, platformDouble, TOKEN, testEndpoints as ep } from './platform-double';

describe('ApiClient requests', () => {
  it('sends the bearer token and a User-Agent naming intrabot and its version', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/things/7`, () => json(200, { data: { id: 7 } }));
    const thing = await client.call(ep.get, { params: { id: 7 } });
    expect(thing).toEqual({ id: 7 });
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]?.headers['user-agent']).toBe(`intrabot/${INTRABOT_VERSION}`);
    expect(INTRABOT_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('validates the body before sending: a bad body never reaches the network and names the field', async () => {
    // no interceptor is registered: reaching the network would fail with a network error instead
    const { client, seen } = platformDouble();
    const attempt = client.call(ep.create, { params: { wall_id: 3 }, body: { body: '', media_ids: [1] } });
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toMatchObject({ field: 'body.body' });
    const nested = client.call(ep.award, {
      params: { id: 1 },
      body: {
        awards: [
          { user_id: 1, awarded_at: 'x' },
          { user_id: 'two' as never, awarded_at: 'x' },
        ],
      },
    });
    await expect(nested).rejects.toMatchObject({ field: 'body.awards.1.user_id' });
    expect(seen).toHaveLength(0);
  });

  it('refuses a call with a missing path parameter, naming it, before any request', async () => {
    const { client, seen } = platformDouble();
    await expect(client.call(ep.get, { params: {} as never })).rejects.toMatchObject({ field: 'params.id' });
    expect(seen).toHaveLength(0);
  });

  it('sends the validated JSON body and drops undefined query values', async () => {
    const { client, on, seen } = platformDouble();
    on(
      'POST',
      (p) => p.startsWith(`${API}/walls/3/things`),
      () => json(201, { data: { id: 9 } }),
    );
    await client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'Hello' }, query: { a: 1, b: undefined } as never });
    expect(seen[0]?.path).toBe(`${API}/walls/3/things?a=1`);
    expect(seen[0]?.body).toEqual({ body: 'Hello' });
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('reports an answer that does not match the documented shape as api_bad_response naming the field', async () => {
    const { client, on } = platformDouble();
    on('GET', `${API}/things/7`, () => json(200, { data: { id: 'seven' } }));
    const attempt = client.call(ep.get, { params: { id: 7 } });
    await expect(attempt).rejects.toBeInstanceOf(ApiBadResponseError);
    await expect(attempt).rejects.toMatchObject({ code: 'api_bad_response', field: 'response.data.id' });
  });

  it('keeps unknown fields of an answer', async () => {
    const { client, on } = platformDouble();
    on('GET', `${API}/things/7`, () => json(200, { data: { id: 7, added_in_beta: true } }));
    expect(await client.call(ep.get, { params: { id: 7 } })).toEqual({ id: 7, added_in_beta: true });
  });

  it('returns nothing for a 204 delete', async () => {
    const { client, on } = platformDouble();
    on('DELETE', `${API}/things/7`, () => ({ statusCode: 204, data: '' }));
    await expect(client.call(ep.remove, { params: { id: 7 } })).resolves.toBeUndefined();
  });

  it('sends no bearer token to an incoming webhook, whose URL token authenticates', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/incoming/hooktoken123`, () => json(200, { ok: true }));
    await client.call(ep.incoming, { params: { token: 'hooktoken123' }, body: { text: 'hi' } });
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('answers a raw request with status, headers and parsed body', async () => {
    const { client, on } = platformDouble();
    on('GET', `${API}/token`, () => json(200, { data: { name: 'bot' } }, { 'x-ratelimit-remaining': '59' }));
    const answer = await client.request({ method: 'get', path: '/api/open/v1/token' });
    expect(answer).toMatchObject({ status: 200, body: { data: { name: 'bot' } } });
    expect(answer.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('makes a single attempt for a raw request marked retry never', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/walls`, () => json(503, {}), 3);
    await expect(client.request({ method: 'GET', path: '/walls', retry: 'never' })).rejects.toMatchObject({ code: 'api_server_error' });
    expect(seen).toHaveLength(1);
  });

  it('repeats a raw POST marked retry safe, and not one without the mark', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/feedback`, () => json(500, {}));
    on('POST', `${API}/feedback`, () => json(200, { data: {} }));
    await expect(client.request({ method: 'POST', path: '/feedback', body: {}, retry: 'safe' })).resolves.toMatchObject({ status: 200 });
    on('POST', `${API}/feedback`, () => json(500, {}), 2);
    await expect(client.request({ method: 'POST', path: '/feedback', body: {} })).rejects.toMatchObject({ code: 'api_uncertain_write' });
    expect(seen).toHaveLength(3);
  });

  it('refuses to paginate an endpoint that does not answer a list', async () => {
    const { client, seen } = platformDouble();
    const iterate = async () => {
      for await (const _ of client.paginate(ep.get, { params: { id: 1 } })) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ code: 'invalid_input', field: 'endpoint' });
    expect(seen).toHaveLength(0);
  });

  it('logs each retry with the request and the error code, never the token', async () => {
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const { client, on } = platformDouble({ logger: { warn: (details, message) => logged.push({ details, message }) } });
    on('GET', `${API}/things/1`, () => json(502, { message: `upstream said ${TOKEN}` }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    await client.call(ep.get, { params: { id: 1 } });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.details).toMatchObject({ method: 'GET', path: `${API}/things/1`, attempt: 1, error: 'api_server_error' });
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });

  it('forwards raw bytes with their content type', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/feedback`, () => json(200, { data: {} }));
    await client.request({ method: 'POST', path: '/feedback', bytes: { data: '{"text":"raw"}', contentType: 'application/json; charset=utf-8' } });
    expect(seen[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen[0]?.body).toEqual({ text: 'raw' });
  });

  it('returns a non-2xx answer from a raw request when asked to', async () => {
    const { client, on } = platformDouble();
    on('GET', `${API}/nope`, () => ({ statusCode: 404, data: '' }));
    const answer = await client.request({ method: 'GET', path: '/nope', httpErrors: 'return' });
    expect(answer.status).toBe(404);
  });
});

describe('token check', () => {
  const clock = new AdjustableClock({ start: 0, frozen: true });

  it('refuses a token without the svc_ prefix with a clear error that does not repeat it', () => {
    const build = () => new ApiClient({ baseUrl: ORIGIN, token: 'ghp_notours_abcdef', clock });
    expect(build).toThrow(InvalidTokenError);
    expect(build).toThrow(/start with svc_/);
    try {
      build();
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain('ghp_notours_abcdef');
      expect((error as Error).message).not.toContain('ghp_notours_abcdef');
    }
  });

  it('refuses an empty token', () => {
    expect(() => new ApiClient({ baseUrl: ORIGIN, token: '', clock })).toThrow(InvalidTokenError);
  });
});
