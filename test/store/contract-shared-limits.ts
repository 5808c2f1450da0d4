import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, type ContractContext } from './contract-kit';

export function claimsAndRateContract(ctx: ContractContext): void {
  describe('claims', () => {
    it('grants a claim to exactly one of 20 concurrent callers across two connections', async () => {
      const other = await ctx.open();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : ctx.store).claims.claim('cron:t1:birthday:greet:2026-11-22T09:00', HOUR)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('frees a claim after its TTL', async () => {
      const other = await ctx.open();
      expect(await ctx.store.claims.claim('leader', 10_000)).toBe(true);
      ctx.clock.advance(9_999);
      expect(await other.claims.claim('leader', 10_000)).toBe(false);
      ctx.clock.advance(1);
      expect(await other.claims.claim('leader', 10_000)).toBe(true);
    });

    it('lets only the holder renew or release a claim', async () => {
      const other = await ctx.open();
      await ctx.store.claims.claim('leader', 10_000);
      expect(await other.claims.renew('leader', 10_000)).toBe(false);
      expect(await other.claims.release('leader')).toBe(false);
      ctx.clock.advance(9_000);
      expect(await ctx.store.claims.renew('leader', 10_000)).toBe(true);
      ctx.clock.advance(9_000);
      expect(await other.claims.claim('leader', 10_000)).toBe(false);
      expect(await ctx.store.claims.release('leader')).toBe(true);
      expect(await other.claims.claim('leader', 10_000)).toBe(true);
    });
  });

  describe('rate budget', () => {
    it('forgets grants further ahead than a window, so a clock moved back does not hold the budget shut', async () => {
      const window = { limit: 60, windowMs: MINUTE, spacingMs: 1_000 };
      for (let i = 0; i < 3; i += 1) expect((await ctx.store.rate.take('token:back', window)).ok).toBe(true);
      ctx.clock.set(ctx.clock.now() - 7 * 24 * 60 * MINUTE);
      // a spread take is spaced after the latest grant: that grant is a week ahead now
      expect(await ctx.store.rate.take('token:back', window)).toEqual({ ok: true, waitMs: 0 });
      expect(await ctx.store.rate.take('token:back', window)).toEqual({ ok: true, waitMs: 1_000 });
    });

    it('never grants more than the limit within a window under concurrent takes', async () => {
      const other = await ctx.open();
      const window = { limit: 10, windowMs: MINUTE };
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? other : ctx.store).rate.take('token:t1', window)));
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      const refused = results.find((r) => !r.ok);
      expect(refused?.waitMs).toBe(MINUTE);
      ctx.clock.advance(MINUTE - 1);
      expect((await ctx.store.rate.take('token:t1', window)).ok).toBe(false);
      ctx.clock.advance(1);
      expect((await ctx.store.rate.take('token:t1', window)).ok).toBe(true);
    });

    it('grants at most the limit in any window-long stretch as time moves', async () => {
      const window = { limit: 5, windowMs: 10_000 };
      const grants: number[] = [];
      let seed = 7;
      for (let i = 0; i < 120; i += 1) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        ctx.clock.advance(seed % 1_500);
        if ((await ctx.store.rate.take('hook:1', window)).ok) grants.push(ctx.clock.now());
      }
      for (const start of grants) expect(grants.filter((t) => t >= start && t < start + window.windowMs).length).toBeLessThanOrEqual(5);
      expect(grants.length).toBeGreaterThan(20);
    });

    it("counts spend the platform reports that this store did not grant, until the platform's reset", async () => {
      const window = { limit: 60, windowMs: MINUTE };
      await ctx.store.rate.take('token:t2', window);
      await ctx.store.rate.observe('token:t2', { ...window, remaining: 0, resetAtMs: ctx.clock.now() + 20_000 });
      expect(await ctx.store.rate.take('token:t2', window)).toEqual({ ok: false, waitMs: expect.any(Number) });
      ctx.clock.advance(20_000);
      expect((await ctx.store.rate.take('token:t2', window)).ok).toBe(true);
    });

    it('reserves the next slot spacingMs after the latest when asked, across connections', async () => {
      const other = await ctx.open();
      const window = { limit: 3, windowMs: MINUTE, spacingMs: 6_000 };
      expect(await ctx.store.rate.take('token:s', window)).toEqual({ ok: true, waitMs: 0 });
      // the next slots are reserved in turn, each 6 s after the one before
      expect(await other.rate.take('token:s', window)).toEqual({ ok: true, waitMs: 6_000 });
      ctx.clock.advance(1_000);
      expect(await ctx.store.rate.take('token:s', window)).toEqual({ ok: true, waitMs: 11_000 });
      // three in the window: the next slot comes when the first leaves it
      expect(await other.rate.take('token:s', window)).toEqual({ ok: true, waitMs: MINUTE - 1_000 });
      // nothing is reserved more than a window ahead
      expect(await other.rate.take('token:s', window)).toEqual({ ok: false, waitMs: 5_000 });
      // without spacing a take is now or not at all
      expect(await ctx.store.rate.take('token:s', { limit: 3, windowMs: MINUTE })).toEqual({ ok: false, waitMs: 65_000 });
    });

    it('grants a burst back to back while the window holds fewer than it, then spaces them', async () => {
      const window = { limit: 10, windowMs: MINUTE, spacingMs: 6_000, burst: 3 };
      const waits = [];
      for (let i = 0; i < 5; i += 1) waits.push((await ctx.store.rate.take('token:b', window)).waitMs);
      expect(waits).toEqual([0, 0, 0, 6_000, 12_000]);
    });

    it('spaces a take without burst after the latest grant of any take, even on a quiet budget, across connections', async () => {
      const other = await ctx.open();
      const spread = { limit: 10, windowMs: MINUTE, spacingMs: 6_000 };
      const burst = { ...spread, burst: 5 };
      expect(await ctx.store.rate.take('token:m', spread)).toEqual({ ok: true, waitMs: 0 });
      // the others may still go at once while the window holds fewer than their burst
      expect(await other.rate.take('token:m', burst)).toEqual({ ok: true, waitMs: 0 });
      // a spread take never does: one spacing after the latest grant, whoever took it
      expect(await other.rate.take('token:m', spread)).toEqual({ ok: true, waitMs: 6_000 });
      expect(await ctx.store.rate.take('token:m', burst)).toEqual({ ok: true, waitMs: 0 });
      expect(await ctx.store.rate.take('token:m', spread)).toEqual({ ok: true, waitMs: 12_000 });
      // after a quiet minute: the first at once, the next a spacing later
      ctx.clock.advance(2 * MINUTE);
      expect(await other.rate.take('token:m', spread)).toEqual({ ok: true, waitMs: 0 });
      expect(await ctx.store.rate.take('token:m', spread)).toEqual({ ok: true, waitMs: 6_000 });
    });

    it('keeps spread takes a spacing apart and every window at the limit when burst and spread takes mix', async () => {
      const other = await ctx.open();
      const spread = { limit: 6, windowMs: 10_000, spacingMs: 1_000 };
      const burst = { ...spread, burst: 3 };
      const all: number[] = [];
      const spreadGrants: number[] = [];
      let seed = 11;
      for (let i = 0; i < 150; i += 1) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        ctx.clock.advance(seed % 900);
        const isSpread = seed % 3 === 0;
        const decision = await (i % 2 ? other : ctx.store).rate.take('hook:mix', isSpread ? spread : burst);
        if (!decision.ok) continue;
        all.push(ctx.clock.now() + decision.waitMs);
        if (isSpread) spreadGrants.push(ctx.clock.now() + decision.waitMs);
      }
      for (const start of all) expect(all.filter((t) => t >= start && t < start + spread.windowMs).length).toBeLessThanOrEqual(spread.limit);
      const sorted = [...spreadGrants].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i += 1) expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBeGreaterThanOrEqual(spread.spacingMs);
      expect(spreadGrants.length).toBeGreaterThan(10);
    });

    it('takes under the limit the platform reported, for every connection, with its wider spacing', async () => {
      const other = await ctx.open();
      const assumed = { limit: 60, windowMs: MINUTE, spacingMs: 1_000 };
      await ctx.store.rate.observe('token:p', { ...assumed, remaining: 60, platformLimit: 6 });
      expect(await other.rate.take('token:p', assumed)).toEqual({ ok: true, waitMs: 0 });
      // 60 s / 6 = 10 s apart, not the 1 s the taker assumed
      expect(await other.rate.take('token:p', assumed)).toEqual({ ok: true, waitMs: 10_000 });
      // a later answer with a higher limit replaces the lower one
      await ctx.store.rate.observe('token:p', { ...assumed, remaining: 60, platformLimit: 60 });
      expect(await other.rate.take('token:p', assumed)).toEqual({ ok: true, waitMs: 11_000 });
    });

    it('does not count reserved slots ahead as spent when the platform reports its count', async () => {
      const window = { limit: 4, windowMs: MINUTE, spacingMs: 1_000 };
      for (let i = 0; i < 3; i += 1) await ctx.store.rate.take('token:r', window);
      // one slot has gone out, two are ahead; the platform counts 2 spent: one by someone else
      await ctx.store.rate.observe('token:r', { ...window, remaining: 2, resetAtMs: ctx.clock.now() + MINUTE });
      // 1 sent + 2 reserved + 1 spent elsewhere: the window is full until the first leaves it
      expect(await ctx.store.rate.take('token:r', window)).toEqual({ ok: true, waitMs: MINUTE });
    });

    it('keeps keys apart', async () => {
      const window = { limit: 1, windowMs: MINUTE };
      expect((await ctx.store.rate.take('token:a', window)).ok).toBe(true);
      expect((await ctx.store.rate.take('token:b', window)).ok).toBe(true);
      expect((await ctx.store.rate.take('token:a', window)).ok).toBe(false);
    });
  });
}
