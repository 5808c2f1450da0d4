import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';

interface Logged {
  method: string;
  path: string;
  token_name: string | null;
}

// issue #24, item 2: a restart costs only what it must of the token's budget (spec: Limits, 60 a minute):
// the token's scopes, one list of bot users and one of webhook endpoints; nothing to create or update
describe('the platform requests of a restart', () => {
  let pair: Pair;
  beforeAll(async () => {
    // a deployment's public URL stays the same across restarts (here the port does not: it is picked anew)
    pair = await startPair({ botsDir: 'test/fixtures/bots', env: { INTRABOT_PUBLIC_URL: 'http://127.0.0.1:3999' } });
  });
  afterAll(async () => pair?.close());

  it('are three, whatever the number of bots: GET /token, /bots and /webhooks', async () => {
    expect(pair.runtime.inspect().bots.length).toBeGreaterThanOrEqual(3);
    await pair.settle();
    await pair.restartRuntime(() => pair.platform.request('DELETE', '/_sandbox/requests'));
    const log = await pair.platform.request<{ data: Logged[] }>('GET', '/_sandbox/requests?limit=500');
    // the harness reads with a token of its own; the runtime's requests are the rest
    const runtimes = log.data.filter((r) => r.token_name !== 'test-harness' && r.path.startsWith('/api/'));
    const calls = runtimes.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`).sort();
    expect(calls).toEqual(['GET /api/open/v1/bots', 'GET /api/open/v1/token', 'GET /api/open/v1/webhooks']);
  });
});
