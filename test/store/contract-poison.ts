import { describe, expect, it } from 'vitest';
import { LOST_LEASES_REASON, MAX_LOST_LEASES, UNREADABLE_PAYLOAD_REASON } from '../../src/store/queue';
import { envelope, type ContractContext } from './contract-kit';

const LEASE = 10_000;

/** A JSON text nesting `levels` arrays: valid JSON that every recursive reader overflows on. */
const nested = (levels: number): string => `{"id":"deep","payload":${'['.repeat(levels)}${']'.repeat(levels)}}`;

/**
 * Poison entries (issue #12, "nothing lost, nothing leaked"): an entry that cannot be read, or whose every
 * holder dies with it, goes to the dead letters with its reason instead of coming back forever, and never
 * fails a listing or the reservation of the entries around it.
 */
export function poisonContract(ctx: ContractContext): void {
  describe('poison entries', () => {
    const acceptRaw = async (deliveryId: string, envelopeJson: string): Promise<string> => {
      const result = await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId, envelope: {}, envelopeJson });
      if (!result.accepted) throw new Error('not accepted');
      return result.id;
    };

    it('dead-letters a stored delivery that is not JSON when it is handed out, with the reason, and lists it meanwhile', async () => {
      const bad = await acceptRaw('d-broken', '{"broken');
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-good', envelope: envelope('d-good') });
      expect(await ctx.store.inbox.list()).toEqual([
        expect.objectContaining({ id: bad, unreadable: UNREADABLE_PAYLOAD_REASON, payload: expect.objectContaining({ envelope: null }) }),
        expect.objectContaining({ payload: expect.objectContaining({ deliveryId: 'd-good' }) }),
      ]);
      const leases = await ctx.store.inbox.reserveMany(LEASE, 5);
      expect(leases.map((l) => l.payload.deliveryId)).toEqual(['d-good']);
      expect(await ctx.store.inbox.list({ state: 'dead' })).toEqual([
        expect.objectContaining({ id: bad, state: 'dead', attempts: 1, deadReason: UNREADABLE_PAYLOAD_REASON }),
      ]);
    });

    it('dead-letters a stored delivery nested too deep to read, and lists it without its envelope', async () => {
      const bad = await acceptRaw('d-deep', nested(100_000));
      const listed = await ctx.store.inbox.list();
      expect(listed).toEqual([expect.objectContaining({ id: bad, unreadable: 'the stored delivery nests too deeply to be read' })]);
      // what the admin route and the CLI do with a listing
      expect(JSON.stringify(listed)).toContain('d-deep');
      expect(await ctx.store.inbox.reserve(LEASE)).toBeNull();
      const [dead] = await ctx.store.inbox.list({ state: 'dead' });
      expect(dead).toMatchObject({ id: bad, deadReason: 'the stored delivery nests too deeply to be read' });
      expect(await ctx.store.inbox.get(bad)).toMatchObject({ state: 'dead', payload: { tenant: 't1', bot: 'kudos', deliveryId: 'd-deep' } });
    });

    it('dead-letters a stored entry that is JSON but not a delivery, naming the field', async () => {
      const id = await acceptRaw('d-shape', '{"id":"d-shape"}');
      await ctx.harness.corruptPayload('inbox', id, '{"tenant":7,"bot":"kudos"}');
      expect(await ctx.store.inbox.reserve(LEASE)).toBeNull();
      const [dead] = await ctx.store.inbox.list({ state: 'dead' });
      expect(dead?.deadReason).toMatch(/^the stored delivery is not one the runtime can read: payload\.tenant: /);
      expect(dead?.payload).toMatchObject({ tenant: '?', bot: 'kudos', envelope: null });
    });

    it('dead-letters an outbox entry whose stored payload is not JSON, and hands out the next one of its target', async () => {
      const first = await ctx.store.outbox.enqueue({ target: 'wall:1', payload: { n: 1 } });
      await ctx.store.outbox.enqueue({ target: 'wall:1', payload: { n: 2 } });
      await ctx.harness.corruptPayload('outbox', first.id, 'not json at all');
      expect((await ctx.store.outbox.list())[0]).toMatchObject({ id: first.id, payload: null, unreadable: UNREADABLE_PAYLOAD_REASON });
      const lease = await ctx.store.outbox.reserve(LEASE);
      expect(lease?.payload).toEqual({ n: 2 });
      expect(await ctx.store.outbox.list({ state: 'dead' })).toEqual([expect.objectContaining({ id: first.id, deadReason: UNREADABLE_PAYLOAD_REASON })]);
    });

    it(`dead-letters an inbox entry after ${MAX_LOST_LEASES} leases in a row ran out unanswered (a holder that dies with it each time)`, async () => {
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-crash', envelope: envelope('d-crash') });
      for (let i = 0; i < MAX_LOST_LEASES; i++) {
        expect((await ctx.store.inbox.reserve(LEASE))?.payload.deliveryId).toBe('d-crash');
        ctx.clock.advance(LEASE + 1);
      }
      expect(await ctx.store.inbox.reserve(LEASE)).toBeNull();
      expect(await ctx.store.inbox.list({ state: 'dead' })).toEqual([expect.objectContaining({ deadReason: LOST_LEASES_REASON })]);
    });

    it('counts only lost leases in a row: a retry answers for the entry and the count starts again', async () => {
      const entry = await ctx.store.outbox.enqueue({ target: 'wall:2', payload: { n: 1 } });
      const loseLeases = async (count: number): Promise<void> => {
        for (let i = 0; i < count; i++) {
          expect((await ctx.store.outbox.reserve(LEASE))?.id).toBe(entry.id);
          ctx.clock.advance(LEASE + 1);
        }
      };
      await loseLeases(MAX_LOST_LEASES - 1);
      const answered = await ctx.store.outbox.reserve(LEASE);
      expect(answered?.id).toBe(entry.id);
      expect(await ctx.store.outbox.retry(answered!, ctx.clock.now(), 'platform answered 503')).toBe(true);
      await loseLeases(MAX_LOST_LEASES);
      expect((await ctx.store.outbox.list({ state: 'dead' })).map((e) => e.id)).toEqual([]);
      expect((await ctx.store.outbox.reserve(LEASE))?.id).toBeUndefined();
      expect(await ctx.store.outbox.list({ state: 'dead' })).toEqual([expect.objectContaining({ id: entry.id, deadReason: LOST_LEASES_REASON })]);
    });
  });
}
