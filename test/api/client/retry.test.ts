import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiValidationError,
  UncertainWriteError,
} from '../../../src/api/errors';
import { backoffDelay, decideRetry, withRetry, DEFAULT_RETRY_POLICY } from '../../../src/api/retry';
import { AdjustableClock } from '../../../src/clock';
import { API, json, platformDouble, settle, testEndpoints as ep } from './platform-double';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });

describe('retries', () => {
  it('retries a GET on 503 and returns the answer that follows', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(503, { message: 'maintenance' }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    await expect(client.call(ep.get, { params: { id: 1 } })).resolves.toEqual({ id: 1 });
    expect(seen).toHaveLength(2);
  });

  it('retries a PUT on a broken connection', async () => {
    const { client, on, pool, seen } = platformDouble();
    pool.intercept({ method: 'PUT', path: `${API}/things/1` }).replyWithError(new undiciErrors.SocketError('other side closed'));
    on('PUT', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    await expect(client.call(ep.update, { params: { id: 1 }, body: { body: 'x' } })).resolves.toEqual({ id: 1 });
    expect(seen).toHaveLength(1);
  });

  it('waits the Retry-After of a 503 before retrying a GET', async () => {
    const { client, on, clock, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(503, {}, { 'retry-after': '8' }));
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const result = client.call(ep.get, { params: { id: 1 } });
    await settle();
    clock.advance(7_999);
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(1);
    await settle();
    await expect(result).resolves.toEqual({ id: 1 });
  });

  it('stops after the configured number of attempts and throws the last error', async () => {
    const { client, on, seen } = platformDouble({ retry: { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxTotalMs: 60_000 } });
    on('GET', `${API}/things/1`, () => json(500, { message: 'boom' }), 5);
    await expect(client.call(ep.get, { params: { id: 1 } })).rejects.toBeInstanceOf(ApiServerError);
    expect(seen).toHaveLength(3);
  });

  it('makes a single attempt when a call asks for one (the outbox owns its retries)', async () => {
    const { client, on, seen } = platformDouble();
    on('GET', `${API}/things/1`, () => json(503, {}), 3);
    await expect(client.call(ep.get, { params: { id: 1 }, attempts: 1 })).rejects.toBeInstanceOf(ApiServerError);
    expect(seen).toHaveLength(1);
  });

  it('does not retry a 422: the body will not get better', async () => {
    const { client, on, seen } = platformDouble();
    on('PUT', `${API}/things/1`, () => json(422, { message: 'The body field is required.' }), 3);
    await expect(client.call(ep.update, { params: { id: 1 }, body: { body: 'x' } })).rejects.toBeInstanceOf(ApiValidationError);
    expect(seen).toHaveLength(1);
  });

  it('waits a growing backoff between attempts on the clock', async () => {
    const { client, on, clock, seen } = platformDouble({ retry: { attempts: 3, baseDelayMs: 1_000, maxDelayMs: 10_000, maxTotalMs: 60_000 } });
    on('GET', `${API}/things/1`, () => json(503, {}), 2);
    on('GET', `${API}/things/1`, () => json(200, { data: { id: 1 } }));
    const result = client.call(ep.get, { params: { id: 1 } });
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(749); // first wait is 750 ms with random 0.5 (half fixed, half jitter of 1 s)
    await settle();
    expect(seen).toHaveLength(1);
    clock.advance(1);
    await settle();
    expect(seen).toHaveLength(2);
    clock.advance(1_500); // second wait: 2 s ceiling -> 1.5 s
    await settle();
    await expect(result).resolves.toEqual({ id: 1 });
  });

  it('gives up when the next wait would pass the total time bound', async () => {
    const { client, on, seen } = platformDouble({ retry: { attempts: 10, baseDelayMs: 0, maxDelayMs: 0, maxTotalMs: 5_000 } });
    on('GET', `${API}/things/1`, () => json(429, {}, { 'retry-after': '30' }), 2);
    await expect(client.call(ep.get, { params: { id: 1 } })).rejects.toMatchObject({ code: 'api_rate_limited' });
    expect(seen).toHaveLength(1);
  });
});

describe('writes that may have reached the platform', () => {
  it('turns a POST answered with 500 into UncertainWriteError and does not repeat it', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/walls/3/things`, () => json(500, { message: 'oops' }), 3);
    const error = await client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'hi' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UncertainWriteError);
    expect(error).toMatchObject({ code: 'api_uncertain_write', method: 'POST', path: `${API}/walls/3/things`, platformStatus: 500 });
    expect((error as Error).cause).toBeInstanceOf(ApiServerError);
    expect(seen).toHaveLength(1);
  });

  it('turns a POST whose body timed out into UncertainWriteError and does not repeat it', async () => {
    const { client, pool, agent } = platformDouble();
    pool.intercept({ method: 'POST', path: `${API}/walls/3/things` }).replyWithError(new undiciErrors.BodyTimeoutError());
    pool.intercept({ method: 'POST', path: `${API}/walls/3/things` }).reply(201, { data: { id: 2 } });
    const error = await client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'hi' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UncertainWriteError);
    expect((error as Error).cause).toMatchObject({ code: 'api_timeout', phase: 'body' });
    expect(agent.pendingInterceptors()).toHaveLength(1); // the second answer was never asked for
  });

  it('retries a POST answered with 429: the platform did not process it', async () => {
    const { client, on, clock, seen } = platformDouble();
    on('POST', `${API}/walls/3/things`, () => json(429, {}, { 'retry-after': '2' }));
    on('POST', `${API}/walls/3/things`, () => json(201, { data: { id: 4 } }));
    const result = client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'hi' } });
    await settle();
    clock.advance(2_000);
    await settle();
    await expect(result).resolves.toEqual({ id: 4 });
    expect(seen).toHaveLength(2);
  });

  it('retries a POST whose connection was refused: it never left', async () => {
    const { client, on, pool, seen } = platformDouble();
    pool.intercept({ method: 'POST', path: `${API}/walls/3/things` }).replyWithError(refused());
    on('POST', `${API}/walls/3/things`, () => json(201, { data: { id: 5 } }));
    await expect(client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'hi' } })).resolves.toEqual({ id: 5 });
    expect(seen).toHaveLength(1);
  });

  it('retries an award POST on 500: an identical row returns the existing award (spec: Award rules 3)', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/achievements/2/awards`, () => json(500, {}));
    on('POST', `${API}/achievements/2/awards`, () => json(201, { data: [{ id: 11 }] }));
    const body = { awards: [{ user_id: 1, awarded_at: '2030-01-15' }] };
    await expect(client.call(ep.award, { params: { id: 2 }, body })).resolves.toEqual([{ id: 11 }]);
    expect(seen).toHaveLength(2);
  });

  it('repeats a POST the caller marks repeatable', async () => {
    const { client, on, seen } = platformDouble();
    on('POST', `${API}/walls/3/things`, () => json(502, {}));
    on('POST', `${API}/walls/3/things`, () => json(201, { data: { id: 6 } }));
    await expect(client.call(ep.create, { params: { wall_id: 3 }, body: { body: 'hi' }, repeatable: true })).resolves.toEqual({ id: 6 });
    expect(seen).toHaveLength(2);
  });
});

describe('decideRetry', () => {
  const at = { method: 'POST', path: '/api/open/v1/walls/3/posts' };
  const cases: [string, unknown, string, 'retry' | 'fail' | 'uncertain'][] = [
    ['a 429', new ApiRateLimitedError({ ...at, status: 429 }, 1_000), 'POST', 'retry'],
    ['a 503 on GET', new ApiServerError({ ...at, status: 503 }, ''), 'GET', 'retry'],
    ['a 503 on DELETE', new ApiServerError({ ...at, status: 503 }, ''), 'DELETE', 'retry'],
    ['a 503 on POST', new ApiServerError({ ...at, status: 503 }, ''), 'POST', 'uncertain'],
    ['a connect timeout on POST', new ApiTimeoutError(at, 'connect'), 'POST', 'retry'],
    ['a headers timeout on POST', new ApiTimeoutError(at, 'headers'), 'POST', 'uncertain'],
    ['a headers timeout on PATCH', new ApiTimeoutError(at, 'headers'), 'PATCH', 'retry'],
    ['a refused connection on POST', new ApiNetworkError(at, false), 'POST', 'retry'],
    ['a reset connection on POST', new ApiNetworkError(at, true), 'POST', 'uncertain'],
    ['a 422', new ApiValidationError({ ...at, status: 422 }, 'bad'), 'PUT', 'fail'],
    ['a 404', new ApiNotFoundError({ ...at, status: 404 }), 'GET', 'fail'],
    ['an abort', new Error('aborted'), 'GET', 'fail'],
  ];
  for (const [what, error, method, expected] of cases) {
    it(`${expected === 'uncertain' ? 'reports an uncertain write for' : expected === 'retry' ? 'retries' : 'does not retry'} ${what}${method === 'POST' ? '' : ` (${method})`}`, () => {
      const decision = decideRetry(error, { method, repeatable: false });
      if (expected === 'retry') expect(decision.kind).toBe('retry');
      else if (expected === 'fail') expect(decision).toEqual({ kind: 'fail', error });
      else {
        expect(decision.kind).toBe('fail');
        expect(decision.kind === 'fail' && decision.error).toBeInstanceOf(UncertainWriteError);
      }
    });
  }
});

describe('backoff arithmetic', () => {
  it('doubles the ceiling per attempt, caps it, and jitters the upper half', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(300);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
  });

  it('stops at the policy bound even when every failure is retryable', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let calls = 0;
    const run = withRetry(
      async () => {
        calls += 1;
        throw new Error('transient');
      },
      { policy: { ...DEFAULT_RETRY_POLICY, attempts: 3, baseDelayMs: 0 }, clock, decide: () => ({ kind: 'retry' }) },
    );
    await expect(run).rejects.toThrow('transient');
    expect(calls).toBe(3);
  });
});
