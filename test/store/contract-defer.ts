import { describe, expect, it } from 'vitest';
import { HOUR, envelope, type ContractContext } from './contract-kit';

/** `defer`: an entry put off without counting as a try (a paused bot's), in both queues. */
export function deferContract(ctx: ContractContext): void {
  describe('defer', () => {
    it('puts an inbox entry off until its time without counting the hand-out, and a requeue makes it due now', async () => {
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-held', envelope: envelope('d-held') });
      const lease = await ctx.store.inbox.reserve(10_000);
      expect(await ctx.store.inbox.defer(lease!, ctx.clock.now() + HOUR, 'held: bot paused')).toBe(true);
      expect(await ctx.store.inbox.defer(lease!, ctx.clock.now() + HOUR, 'held: bot paused')).toBe(false);
      expect(await ctx.store.inbox.get(lease!.id)).toMatchObject({ state: 'pending', attempts: 0, lastError: 'held: bot paused' });
      expect(await ctx.store.inbox.reserve(10_000)).toBeNull();
      expect(await ctx.store.inbox.requeue(lease!.id)).toBe(true);
      expect(await ctx.store.inbox.reserve(10_000)).toMatchObject({ id: lease!.id, attempts: 1 });
    });

    it("puts an outbox entry off without counting the hand-out, holding its target's line", async () => {
      const first = await ctx.store.outbox.enqueue({ target: 'wall:3', payload: { n: 1 } });
      const second = await ctx.store.outbox.enqueue({ target: 'wall:3', payload: { n: 2 } });
      const lease = await ctx.store.outbox.reserve(10_000);
      expect(lease?.id).toBe(first.id);
      expect(await ctx.store.outbox.defer(lease!, ctx.clock.now() + HOUR, 'held: bot paused')).toBe(true);
      expect(await ctx.store.outbox.reserve(10_000)).toBeNull();
      ctx.clock.advance(HOUR);
      expect(await ctx.store.outbox.reserve(10_000)).toMatchObject({ id: first.id, attempts: 1, lastError: 'held: bot paused' });
      expect((await ctx.store.outbox.get(second.id))?.state).toBe('pending');
    });

    it("sets a held outbox entry aside: its target's next entry goes meanwhile, and it comes from its new line when due", async () => {
      const held = await ctx.store.outbox.enqueue({ target: 'wall:5', payload: { n: 1 } });
      const next = await ctx.store.outbox.enqueue({ target: 'wall:5', payload: { n: 2 } });
      const lease = await ctx.store.outbox.reserve(10_000);
      expect(lease?.id).toBe(held.id);
      expect(await ctx.store.outbox.setAside(lease!, 'wall:5:paused:kudos', ctx.clock.now() + HOUR, 'held: bot paused')).toBe(true);
      expect(await ctx.store.outbox.setAside(lease!, 'wall:5:paused:kudos', ctx.clock.now() + HOUR, 'held: bot paused')).toBe(false);
      const second = await ctx.store.outbox.reserve(10_000);
      expect(second).toMatchObject({ id: next.id, target: 'wall:5' });
      expect(await ctx.store.outbox.complete(second!)).toBe(true);
      expect(await ctx.store.outbox.reserve(10_000)).toBeNull();
      expect(await ctx.store.outbox.get(held.id)).toMatchObject({ target: 'wall:5:paused:kudos', attempts: 0, lastError: 'held: bot paused' });
      // a second held entry waits behind the first in the held line, in order
      const later = await ctx.store.outbox.enqueue({ target: 'wall:5', payload: { n: 3 } });
      const third = await ctx.store.outbox.reserve(10_000);
      expect(third?.id).toBe(later.id);
      expect(await ctx.store.outbox.setAside(third!, 'wall:5:paused:kudos', ctx.clock.now() + HOUR, 'held: bot paused')).toBe(true);
      ctx.clock.advance(HOUR);
      const first = await ctx.store.outbox.reserve(10_000);
      expect(first).toMatchObject({ id: held.id, attempts: 1 });
      expect(await ctx.store.outbox.reserve(10_000)).toBeNull();
      await ctx.store.outbox.complete(first!);
      expect(await ctx.store.outbox.reserve(10_000)).toMatchObject({ id: later.id });
    });

    it('refuses a set-aside without a target, naming the field', async () => {
      await ctx.store.outbox.enqueue({ target: 'wall:6', payload: { n: 1 } });
      const lease = await ctx.store.outbox.reserve(10_000);
      await expect(ctx.store.outbox.setAside(lease!, '', ctx.clock.now(), 'held')).rejects.toThrow(/target/);
    });

    it('refuses a defer to a time that is not a number, naming the field', async () => {
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-bad', envelope: envelope('d-bad') });
      const lease = await ctx.store.inbox.reserve(10_000);
      await expect(ctx.store.inbox.defer(lease!, Number.NaN, 'held')).rejects.toThrow(/notBeforeMs/);
    });
  });
}
