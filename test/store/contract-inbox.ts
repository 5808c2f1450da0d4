import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, envelope, type ContractContext } from './contract-kit';

export function inboxContract(ctx: ContractContext): void {
  describe('inbox', () => {
    it('records a delivery id accepted twice once', async () => {
      const first = await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-1', envelope: envelope('d-1') });
      const second = await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-1', envelope: envelope('d-1') });
      expect(first.accepted).toBe(true);
      expect(second).toEqual({ accepted: false, duplicateOf: 'delivery' });
      expect(await ctx.store.inbox.list()).toHaveLength(1);
    });

    it('accepts exactly one of concurrent deliveries with the same id', async () => {
      const other = await ctx.open();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? other : ctx.store).inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'same', envelope: envelope('same') }),
        ),
      );
      expect(results.filter((r) => r.accepted)).toHaveLength(1);
      expect(await ctx.store.inbox.list()).toHaveLength(1);
    });

    it('deduplicates within a burst accepted in one go: a repeated delivery id and a repeated event key, each once', async () => {
      const post = (deliveryId: string, postId: number) => ({
        tenant: 't1',
        bot: 'kudos',
        deliveryId,
        dedupeKey: `post.created:${postId}`,
        envelope: envelope(deliveryId, 'service.post.created', postId),
      });
      const results = await Promise.all([post('b-1', 1), post('b-2', 2), post('b-1', 1), post('b-3', 2), post('b-4', 4)].map((d) => ctx.store.inbox.accept(d)));
      expect(results.map((r) => (r.accepted ? 'accepted' : r.duplicateOf))).toEqual(['accepted', 'accepted', 'delivery', 'dedupe_key', 'accepted']);
      expect((await ctx.store.inbox.list()).map((e) => (e.payload as { deliveryId: string }).deliveryId).sort()).toEqual(['b-1', 'b-2', 'b-4']);
    });

    it('refuses a delivery it cannot store on its own, without failing the deliveries accepted beside it', async () => {
      const good = (id: string) => ({ tenant: 't1', bot: 'kudos', deliveryId: id, envelope: envelope(id) });
      // an envelope JSON cannot hold (a BigInt): a programming error of the caller's
      const bad = { tenant: 't1', bot: 'kudos', deliveryId: 'bad', envelope: { id: 'bad', n: 1n } };
      const results = await Promise.allSettled([good('g-1'), bad, good('g-2')].map((d) => ctx.store.inbox.accept(d)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_input', field: 'delivery.envelope' });
      expect((await ctx.store.inbox.list()).map((e) => (e.payload as { deliveryId: string }).deliveryId).sort()).toEqual(['g-1', 'g-2']);
    });

    it('drops a recovered event whose second dedupe key was seen, and keeps bots apart', async () => {
      const base = { tenant: 't1', dedupeKey: 'post.created:7', envelope: envelope('x', 'service.post.created', 7) };
      expect((await ctx.store.inbox.accept({ ...base, bot: 'kudos', deliveryId: 'd-a' })).accepted).toBe(true);
      expect(await ctx.store.inbox.accept({ ...base, bot: 'kudos', deliveryId: 'd-b' })).toEqual({ accepted: false, duplicateOf: 'dedupe_key' });
      expect((await ctx.store.inbox.accept({ ...base, bot: 'welcome', deliveryId: 'd-a' })).accepted).toBe(true);
    });

    it("remembers a delivery id past the platform's 10-minute retry, and forgets it after the TTL", async () => {
      const input = { tenant: 't1', bot: 'kudos', deliveryId: 'd-late', envelope: envelope('d-late') };
      await ctx.store.inbox.accept(input);
      ctx.clock.advance(11 * MINUTE); // spec: Outgoing webhooks, retries at 1 and 10 minutes
      expect((await ctx.store.inbox.accept(input)).accepted).toBe(false);
      ctx.clock.advance(24 * HOUR);
      expect((await ctx.store.inbox.accept(input)).accepted).toBe(true);
    });

    it('keeps an accepted delivery once accept resolved: another connection finds it (nothing acknowledged is lost)', async () => {
      const result = await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-keep', event: 'post.created', envelope: envelope('d-keep') });
      const second = await ctx.open(); // the first is left open, as if its process had been killed
      const lease = await second.inbox.reserve(30_000);
      expect(lease?.id).toBe(result.accepted ? result.id : 'not accepted');
      expect(lease?.payload).toMatchObject({ tenant: 't1', bot: 'kudos', deliveryId: 'd-keep', event: 'post.created', envelope: { id: 'd-keep' } });
    });

    it('hands a leased entry out again after the visibility timeout, and only the new holder completes it', async () => {
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-lease', envelope: envelope('d-lease') });
      const first = await ctx.store.inbox.reserve(30_000);
      expect(first?.attempts).toBe(1);
      expect(await ctx.store.inbox.reserve(30_000)).toBeNull();
      ctx.clock.advance(30_001);
      const second = await ctx.store.inbox.reserve(30_000);
      expect(second?.id).toBe(first?.id);
      expect(second?.attempts).toBe(2);
      expect(await ctx.store.inbox.complete(first!)).toBe(false);
      expect(await ctx.store.inbox.complete(second!)).toBe(true);
      ctx.clock.advance(HOUR);
      expect(await ctx.store.inbox.reserve(30_000)).toBeNull();
    });

    it('records failures, dead-letters with the reason, and replays a dead letter', async () => {
      await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: 'd-fail', envelope: envelope('d-fail') });
      const lease = await ctx.store.inbox.reserve(10_000);
      expect(await ctx.store.inbox.retry(lease!, ctx.clock.now() + 5_000, 'handler threw: boom')).toBe(true);
      expect(await ctx.store.inbox.reserve(10_000)).toBeNull();
      ctx.clock.advance(5_000);
      const again = await ctx.store.inbox.reserve(10_000);
      expect(again).toMatchObject({ attempts: 2, lastError: 'handler threw: boom' });
      expect(await ctx.store.inbox.deadLetter(again!, 'gave up after 2 attempts')).toBe(true);
      const dead = await ctx.store.inbox.list({ state: 'dead' });
      expect(dead).toEqual([expect.objectContaining({ id: again!.id, state: 'dead', deadReason: 'gave up after 2 attempts' })]);
      expect(await ctx.store.inbox.requeue(again!.id)).toBe(true);
      expect((await ctx.store.inbox.reserve(10_000))?.id).toBe(again!.id);
    });

    it('hands out up to the asked number of entries in one batch reservation, each once', async () => {
      for (let i = 0; i < 5; i += 1) await ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: `b-${i}`, envelope: envelope(`b-${i}`) });
      const first = await ctx.store.inbox.reserveMany(10_000, 3);
      const second = await ctx.store.inbox.reserveMany(10_000, 3);
      expect(first).toHaveLength(3);
      expect(second).toHaveLength(2);
      const ids = [...first, ...second].map((l) => l.payload.deliveryId).sort();
      expect(ids).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
    });

    it('keeps the envelope from the text it was received as, byte for byte in meaning', async () => {
      const text = '{ "id": "d-text", "event": "service.post.created", "payload": { "id": 9, "body": "caf\\u00e9 \\"quoted\\"" } }';
      const result = await ctx.store.inbox.accept({
        tenant: 't1',
        bot: 'kudos',
        deliveryId: 'd-text',
        dedupeKey: 'post.created:9',
        envelope: JSON.parse(text),
        envelopeJson: text,
      });
      const entry = await ctx.store.inbox.get(result.accepted ? result.id : '');
      expect(entry?.payload).toEqual({
        tenant: 't1',
        bot: 'kudos',
        deliveryId: 'd-text',
        dedupeKey: 'post.created:9',
        event: null,
        envelope: JSON.parse(text),
      });
      expect((entry?.payload.envelope as { payload: { body: string } }).payload.body).toBe('café "quoted"');
    });

    it('refuses a delivery without a delivery id, naming the field', async () => {
      await expect(ctx.store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId: '', envelope: {} })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'delivery.deliveryId',
      });
    });
  });
}
