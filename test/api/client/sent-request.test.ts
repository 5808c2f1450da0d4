import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../../src/api/rate-limiter';
import type { SentRequest } from '../../../src/api/sent-request';
import { AdjustableClock } from '../../../src/clock';
import { API, json, platformDouble, START, testEndpoints as ep } from './platform-double';

// Issue #24, item 1: what the client tells `hooks.sent` feeds intrabot_platform_requests_total and
// intrabot_rate_budget_wait_seconds. No path or URL is told: a path carries ids.

/** A limiter that makes each request wait `waitMs` on the clock, as a pacer out of budget would. */
function slowLimiter(clock: AdjustableClock, waitMs: number): RateLimiter {
  return {
    acquire: async () => clock.advance(waitMs),
    observe: () => undefined,
    backoff: () => undefined,
  };
}

describe('ApiClient hooks.sent', () => {
  it("tells each request's method, status and its wait for budget on the client's clock", async () => {
    const sent: SentRequest[] = [];
    const clock = new AdjustableClock({ start: START, frozen: true });
    const { client, on } = platformDouble({ clock, limiter: slowLimiter(clock, 1_500), hooks: { sent: (r) => void sent.push(r) }, retry: { attempts: 1 } });
    on('GET', `${API}/things/7`, () => json(200, { data: { id: 7 } }));
    await client.call(ep.get, { params: { id: 7 } });
    expect(sent).toEqual([{ method: 'GET', status: 200, budget: 'token', waitedMs: 1_500 }]);
  });

  it('tells every attempt of a retried request, the platform refusals included', async () => {
    const sent: SentRequest[] = [];
    const { client, on } = platformDouble({ hooks: { sent: (r) => void sent.push(r) } });
    on('GET', `${API}/things/7`, () => json(503, { message: 'down' }));
    on('GET', `${API}/things/7`, () => json(200, { data: { id: 7 } }));
    await client.call(ep.get, { params: { id: 7 } });
    expect(sent.map((r) => r.status)).toEqual([503, 200]);
  });

  it('tells a request that got no answer with no status', async () => {
    const sent: SentRequest[] = [];
    // nothing intercepts: the mock agent refuses the connection
    const { client } = platformDouble({ hooks: { sent: (r) => void sent.push(r) }, retry: { attempts: 1 } });
    await expect(client.call(ep.get, { params: { id: 7 } })).rejects.toThrow();
    expect(sent).toEqual([{ method: 'GET', status: undefined, budget: 'token', waitedMs: 0 }]);
  });
});
