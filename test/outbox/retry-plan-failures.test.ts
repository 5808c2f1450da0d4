import { describe, expect, it } from 'vitest';
import {
  ApiForbiddenError,
  ApiNetworkError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiValidationError,
  UncertainWriteError,
} from '../../src/api/errors';
import { InvalidInputError } from '../../src/errors';
import { classifyFailure } from '../../src/outbox/retry-plan';

const at = { method: 'POST', path: '/api/open/v1/walls/1/posts' };

describe('classifyFailure', () => {
  it('dead-letters a 422 with the platform message and the failing field', () => {
    const failure = classifyFailure(new ApiValidationError({ ...at, status: 422 }, 'awards.1.user_id is a bot', 'awards.1.user_id'));
    expect(failure).toMatchObject({ kind: 'dead', certainlyNotSent: true });
    expect(failure.message).toBe('422 awards.1.user_id is a bot (field awards.1.user_id)');
  });

  it('dead-letters other refusals (403) and entries that can never be sent', () => {
    expect(classifyFailure(new ApiForbiddenError({ ...at, status: 403 }, 'missing scope write:posts')).kind).toBe('dead');
    expect(classifyFailure(new InvalidInputError('entry.body', 'entry.body: required')).kind).toBe('dead');
  });

  it('keeps the Retry-After of a 429', () => {
    expect(classifyFailure(new ApiRateLimitedError({ ...at, status: 429 }, 7_000))).toMatchObject({
      kind: 'rate',
      retryAfterMs: 7_000,
      certainlyNotSent: true,
    });
  });

  it('treats a timeout after sending as uncertain, a refused connection as surely not sent', () => {
    const timeout = new ApiTimeoutError(at, 'headers');
    expect(classifyFailure(new UncertainWriteError(at, timeout))).toMatchObject({ kind: 'uncertain', certainlyNotSent: false });
    expect(classifyFailure(new ApiNetworkError(at, false))).toMatchObject({ kind: 'transient', certainlyNotSent: true });
    expect(classifyFailure(new ApiServerError({ method: 'GET', path: '/x', status: 502 }, 'bad gateway'))).toMatchObject({ kind: 'transient' });
  });

  it('names the error code in what the CLI shows for a retry', () => {
    expect(classifyFailure(new ApiNetworkError(at, true)).message).toMatch(/^api_network: /);
  });
});
