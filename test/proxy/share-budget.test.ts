import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { budgetHeaders, passThroughHeaders } from '../../src/proxy/response-headers';
import { MemoryShareBudget, proxyShare } from '../../src/proxy/share-budget';
import { ShareGate } from '../../src/proxy/share-gate';

describe('proxyShare', () => {
  it.each([
    [60, 0.5, 30],
    [60, 1, 60],
    [7, 0.5, 3],
    [1, 0.5, 1],
  ])('share of %i at %f is %i', (limit, share, expected) => expect(proxyShare(limit, share)).toBe(expected));
});

describe('MemoryShareBudget', () => {
  it('grants at most limit takes in any window and says when the next one may go', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const budget = new MemoryShareBudget(clock);
    const window = { limit: 2, windowMs: 60_000 };
    expect(await budget.take('k', window)).toEqual({ ok: true, waitMs: 0, remaining: 1 });
    clock.advance(10_000);
    expect(await budget.take('k', window)).toEqual({ ok: true, waitMs: 0, remaining: 0 });
    expect(await budget.take('k', window)).toMatchObject({ ok: false, waitMs: 50_000 });
    clock.advance(50_000);
    expect((await budget.take('k', window)).ok).toBe(true);
    expect((await budget.take('other', window)).ok).toBe(true);
  });
});

describe('ShareGate', () => {
  it('limits only while the outbox is busy, counting every call', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let busy = false;
    const gate = new ShareGate({ clock, outboxBusy: async () => busy, share: 0.5 });
    gate.observe('t', { 'x-ratelimit-limit': '4' }, undefined);
    expect(await gate.admit('t')).toBeUndefined();
    busy = true;
    expect(await gate.admit('t')).toEqual({ limit: 2, remaining: 0 });
    await expect(gate.admit('t')).rejects.toMatchObject({ code: 'proxy_share_exceeded', status: 429, retryAfterSeconds: 60 });
  });
});

describe('response headers', () => {
  it('drops hop-by-hop headers and those named by Connection', () => {
    expect(
      passThroughHeaders({
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
        'transfer-encoding': 'chunked',
        'content-length': '9',
        'content-type': 'application/json',
        'x-ratelimit-limit': '60',
      }),
    ).toEqual({
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
    });
  });

  it("shows the proxy's share while busy and the platform's budget otherwise", () => {
    const platform = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '40', 'x-ratelimit-reset': '1700000000' };
    expect(budgetHeaders(platform, undefined)).toEqual(platform);
    expect(budgetHeaders(platform, { limit: 30, remaining: 5 })).toEqual({ ...platform, 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '5' });
    expect(budgetHeaders({ ...platform, 'x-ratelimit-remaining': '2' }, { limit: 30, remaining: 5 })['x-ratelimit-remaining']).toBe('2');
  });
});
