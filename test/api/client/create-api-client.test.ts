import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/create-api-client';
import { ApiClient } from '../../../src/api/client';
import { AdjustableClock } from '../../../src/clock';
import { API, ORIGIN, START, TOKEN } from './platform-double';

describe('createApiClient', () => {
  it('is an ApiClient with the typed resource groups attached, sending the bearer token through them', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let auth: unknown;
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: `${API}/token` })
      .reply((opts) => {
        auth = (opts.headers as Record<string, string>).authorization;
        return { statusCode: 200, data: JSON.stringify({ data: { name: 'bot', scopes: ['read:walls'], expires_at: null } }) };
      });
    const api = createApiClient({ baseUrl: ORIGIN, token: TOKEN, clock: new AdjustableClock({ start: START, frozen: true }), dispatcher: agent });
    expect(api).toBeInstanceOf(ApiClient);
    expect(typeof api.posts.create).toBe('function');
    expect(typeof api.posts.createWithMedia).toBe('function');
    expect(typeof api.media.uploadFile).toBe('function');
    // the `token` resource group must not clobber the client's own token
    await expect(api.token.get()).resolves.toMatchObject({ name: 'bot' });
    expect(auth).toBe(`Bearer ${TOKEN}`);
  });
});
