import { describe, expect, it } from 'vitest';
import { CLAIM_ONCE, type ClaimOnce } from '../../../src/bots/claim-once';
import { claimOnce } from '../../../src/bots/helpers';
import { AdjustableClock } from '../../../src/clock';
import { MemoryClaims } from '../../../src/testing/test-bot/memory-claims';

describe('claimOnce: a bot takes a key once across replicas and retries', () => {
  const clock = new AdjustableClock({ start: Date.parse('2026-06-10T10:00:00Z'), frozen: true });
  const claims = new MemoryClaims(clock);
  const ctx = { locals: { [CLAIM_ONCE.name]: ((key, ttlMs) => claims.claim(key, ttlMs)) satisfies ClaimOnce } };

  it('answers true to the first caller and false to the next until the time is up', async () => {
    expect(await claimOnce(ctx, 'reminded:7', 60_000)).toBe(true);
    expect(await claimOnce(ctx, 'reminded:7', 60_000)).toBe(false);
    expect(await claimOnce(ctx, 'reminded:8', 60_000)).toBe(true);
    clock.advance(60_001);
    expect(await claimOnce(ctx, 'reminded:7', 60_000)).toBe(true);
  });

  it('refuses a context without the runtime claim, naming why', async () => {
    await expect(claimOnce({ locals: {} }, 'k', 1)).rejects.toThrow(/ctx\.locals has no claim/);
  });
});
