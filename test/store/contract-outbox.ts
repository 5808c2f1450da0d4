import { describe, expect, it } from 'vitest';
import { HOUR, type ContractContext } from './contract-kit';

export function outboxContract(ctx: ContractContext): void {
  describe('outbox', () => {
    const enqueueAll = async (target: string, n: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 1) ids.push((await ctx.store.outbox.enqueue({ target, payload: { n: i } })).id);
      return ids;
    };

    it('keeps order per target with one in flight per target while other targets proceed', async () => {
      const a = await enqueueAll('webhook:a', 3);
      const b = await enqueueAll('webhook:b', 2);
      const first = await ctx.store.outbox.reserve(30_000);
      const second = await ctx.store.outbox.reserve(30_000);
      expect([first?.id, second?.id].sort()).toEqual([a[0], b[0]].sort());
      expect(await ctx.store.outbox.reserve(30_000)).toBeNull(); // both heads are in flight
      await ctx.store.outbox.complete(first!);
      const next = await ctx.store.outbox.reserve(30_000);
      expect(next?.id).toBe(first!.id === a[0] ? a[1] : b[1]);
      const order: string[] = [next!.id];
      await ctx.store.outbox.complete(next!);
      await ctx.store.outbox.complete(second!);
      for (let lease = await ctx.store.outbox.reserve(30_000); lease; lease = await ctx.store.outbox.reserve(30_000)) {
        order.push(lease.id);
        await ctx.store.outbox.complete(lease);
      }
      expect(order.filter((id) => a.includes(id))).toEqual(a.filter((id) => order.includes(id)));
      expect(await ctx.store.outbox.list()).toEqual([]);
    });

    it('hands out at most one entry per target in a batch reservation', async () => {
      const a = await enqueueAll('a', 3);
      const b = await enqueueAll('b', 2);
      const c = await enqueueAll('c', 1);
      const leases = await ctx.store.outbox.reserveMany(30_000, 10);
      expect(leases.map((l) => l.id).sort()).toEqual([a[0], b[0], c[0]].sort());
      expect(new Set(leases.map((l) => l.leaseToken)).size).toBe(3);
      expect(await ctx.store.outbox.reserveMany(30_000, 10)).toEqual([]);
      for (const lease of leases) expect(await ctx.store.outbox.complete(lease)).toBe(true);
      expect((await ctx.store.outbox.reserveMany(30_000, 10)).map((l) => l.id).sort()).toEqual([a[1], b[1]].sort());
    });

    it("does not hand out a retried entry before its notBefore, and holds its target's line meanwhile", async () => {
      const [a1, a2] = await enqueueAll('token:t1', 2);
      const lease = await ctx.store.outbox.reserve(30_000);
      expect(lease?.id).toBe(a1);
      await ctx.store.outbox.retry(lease!, ctx.clock.now() + 60_000, 'api_rate_limited');
      ctx.clock.advance(59_999);
      expect(await ctx.store.outbox.reserve(30_000)).toBeNull();
      ctx.clock.advance(1);
      const again = await ctx.store.outbox.reserve(30_000);
      expect(again).toMatchObject({ id: a1, attempts: 2, lastError: 'api_rate_limited' });
      await ctx.store.outbox.complete(again!);
      expect((await ctx.store.outbox.reserve(30_000))?.id).toBe(a2);
    });

    it('lists dead letters with their reason, requeues one at the end of its line, and drops another', async () => {
      const [x, y, z] = await enqueueAll('wall:3', 3);
      const lx = await ctx.store.outbox.reserve(30_000);
      await ctx.store.outbox.deadLetter(lx!, 'api_validation: body is required');
      const ly = await ctx.store.outbox.reserve(30_000);
      expect(ly?.id).toBe(y);
      await ctx.store.outbox.deadLetter(ly!, 'api_validation: wall_id');
      const dead = await ctx.store.outbox.list({ state: 'dead' });
      expect(dead.map((e) => [e.id, e.deadReason])).toEqual([
        [x, 'api_validation: body is required'],
        [y, 'api_validation: wall_id'],
      ]);
      expect(await ctx.store.outbox.requeue(x!)).toBe(true);
      expect(await ctx.store.outbox.drop(y!)).toBe(true);
      expect(await ctx.store.outbox.get(y!)).toBeUndefined();
      expect((await ctx.store.outbox.list()).map((e) => e.id)).toEqual([z, x]);
      expect(await ctx.store.outbox.list({ state: 'dead' })).toEqual([]);
      const lz = await ctx.store.outbox.reserve(30_000);
      expect(lz?.id).toBe(z);
      expect(await ctx.store.outbox.reserve(30_000)).toBeNull(); // the requeued entry waits behind z
      await ctx.store.outbox.complete(lz!);
      expect(await ctx.store.outbox.reserve(30_000)).toMatchObject({ id: x, attempts: 1 });
    });

    it('counts live entries per target, and refuses to drop a leased entry', async () => {
      await enqueueAll('a', 3);
      await enqueueAll('b', 1);
      expect(await ctx.store.outbox.depth('a')).toBe(3);
      const lease = await ctx.store.outbox.reserve(30_000);
      expect(await ctx.store.outbox.drop(lease!.id)).toBe(false);
      expect(await ctx.store.outbox.get(lease!.id)).toMatchObject({ state: 'leased' });
      await ctx.store.outbox.complete(lease!);
      expect((await ctx.store.outbox.depth('a')) + (await ctx.store.outbox.depth('b'))).toBe(3);
    });

    it('keeps an enqueued entry for a new connection, and does not redo a completed one', async () => {
      const entry = await ctx.store.outbox.enqueue({ target: 'chat:1', payload: { text: 'hello' } });
      const second = await ctx.open();
      const lease = await second.outbox.reserve(30_000);
      expect(lease).toMatchObject({ id: entry.id, payload: { text: 'hello' } });
      await second.outbox.complete(lease!);
      ctx.clock.advance(HOUR);
      expect(await ctx.store.outbox.reserve(30_000)).toBeNull();
    });
  });
}
