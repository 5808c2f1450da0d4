import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { settle, storeLiveWork, type SettleDeps } from '../../src/testing/settle';
import { tempStore } from '../helpers/temp-store';

/** A platform and a runtime scripted look by look: each `liveWork` answer is the next in `looks`. */
function scripted(looks: { inbox: string[]; outbox: string[] }[]): SettleDeps & { settled: number; looked: number } {
  const deps = {
    settled: 0,
    looked: 0,
    settleDeliveries: async () => void deps.settled++,
    liveWork: async () => looks[Math.min(deps.looked++, looks.length - 1)]!,
  };
  return deps;
}

const idle = { inbox: [], outbox: [] };

describe('settle', () => {
  it('returns once the deliveries are settled and the inbox and outbox are empty on two looks in a row', async () => {
    const deps = scripted([idle, idle]);
    await settle(deps);
    expect(deps).toMatchObject({ looked: 2, settled: 2 });
  });

  it('keeps waiting while a handler or a send is live', async () => {
    const deps = scripted([{ inbox: ['kudos post.created'], outbox: [] }, { inbox: [], outbox: ['post:7'] }, idle, idle]);
    await settle(deps);
    expect(deps.looked).toBe(4);
  });

  it('looks again when a delivery settled between the two looks brought new work', async () => {
    // the award's own achievement.awarded arrives after the first empty look
    const deps = scripted([idle, { inbox: ['kudos achievement.awarded'], outbox: [] }, idle, idle]);
    await settle(deps);
    expect(deps.looked).toBe(4);
  });

  it('gives up after its timeout, naming the work still live', async () => {
    const deps = scripted([{ inbox: ['kudos post.created'], outbox: ['comment:5'] }]);
    await expect(settle(deps, { timeoutMs: 50 })).rejects.toThrow(/settle: gave up after 50 ms; still live: inbox: kudos post.created; outbox: comment:5/);
  });

  it('moves the clock a second each time work is still live when asked to, and leaves it alone otherwise', async () => {
    const busy = { inbox: [], outbox: ['user:8'] };
    const moved: number[] = [];
    const asked = { ...scripted([busy, busy, idle, idle]), advance: async (seconds: number) => void moved.push(seconds) };
    await settle(asked, { advanceClock: true });
    expect(moved).toEqual([1, 1]);
    const left = { ...scripted([busy, idle, idle]), advance: async (seconds: number) => void moved.push(seconds) };
    await settle(left);
    expect(moved).toEqual([1, 1]);
  });

  it("counts only the named bots' deliveries when given bots, and every outbox entry", async () => {
    const store = await tempStore(new AdjustableClock());
    try {
      await store.inbox.accept({ tenant: 'sandbox', bot: 'thrower', deliveryId: 'd-1', event: 'post.created', envelope: {} });
      await store.inbox.accept({ tenant: 'sandbox', bot: 'echo', deliveryId: 'd-2', event: 'post.created', envelope: {} });
      await store.outbox.enqueue({ target: 'comment:5', payload: {} });
      expect(await storeLiveWork(store)).toEqual({ inbox: ['thrower post.created', 'echo post.created'], outbox: ['comment:5'] });
      expect(await storeLiveWork(store, ['echo'])).toEqual({ inbox: ['echo post.created'], outbox: ['comment:5'] });
      expect(await storeLiveWork(store, ['greeter'])).toEqual({ inbox: [], outbox: ['comment:5'] });
    } finally {
      await store.close();
      await rm(store.dir, { recursive: true, force: true });
    }
  });
});
