import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import type { Store } from '../../src/store';
import { exportLine, parseStoreExport } from '../../src/store/store-export-lines';
import { HOUR, MINUTE, envelope } from './contract-kit';

/** A fresh, empty store of one kind, opened on the given clock with the given secret key. */
export interface TransferEnd {
  open(clock: AdjustableClock, secretKey: string): Promise<Store>;
  cleanup(): Promise<void>;
}

/** A passphrase, not a raw key: the source's salt must travel for it to derive the same key on the target. */
export const TRANSFER_KEY = 'a passphrase for the transfer tests';
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

/** Everything a store holds, as the export's lines (the text `intrabot store export` writes). */
export async function exportText(store: Store): Promise<string> {
  let text = '';
  for await (const item of store.transfer!.export()) text += exportLine(item);
  return text;
}

/** Fills a store through its public API with one of everything that must travel. */
async function fill(store: Store, clock: AdjustableClock): Promise<{ waiting: string; outboxA: string[]; outboxB: string[] }> {
  const accept = (deliveryId: string, dedupeKey?: string) =>
    store.inbox.accept({
      tenant: 'default',
      bot: 'kudos',
      deliveryId,
      ...(dedupeKey ? { dedupeKey } : {}),
      envelope: envelope(deliveryId),
      event: 'post.created',
    });
  await accept('d-waiting', 'post:1');
  await accept('d-dead');
  await accept('d-deferred');
  await accept('d-leased');
  for (let lease = await store.inbox.reserve(30_000); lease; lease = await store.inbox.reserve(30_000)) {
    if (lease.payload.deliveryId === 'd-dead') await store.inbox.deadLetter(lease, 'handler threw for good');
    else if (lease.payload.deliveryId === 'd-deferred') await store.inbox.defer(lease, clock.now() + HOUR, 'bot paused');
    else if (lease.payload.deliveryId === 'd-waiting') await store.inbox.retry(lease, clock.now() + 1_000, 'try again');
    // d-leased is left leased: it travels as waiting
  }
  const outboxA = [];
  const outboxB = [];
  for (let n = 0; n < 3; n += 1) outboxA.push((await store.outbox.enqueue({ target: 'wall:a', payload: { n } })).id);
  for (let n = 0; n < 2; n += 1) outboxB.push((await store.outbox.enqueue({ target: 'wall:b', payload: { n } })).id);
  await store.kv('bot:kudos').set('cursor', { since: '2026-01-01' });
  await store.kv('bot:kudos').set('cache', [1, 2, 3], { ttlMs: 10 * MINUTE });
  await store.secrets.put('webhook:default:kudos', 'the signing secret');
  await store.provisioning.put('default', { kind: 'bot_user', name: 'kudos', remoteId: 42 });
  await store.claims.claim('cron:default:kudos:digest:2026-11-22T09:00', 24 * HOUR);
  return { waiting: 'd-waiting', outboxA, outboxB };
}

/**
 * The move between two kinds of store: everything filled in through the public API on `from` is exported,
 * imported into a fresh `to`, and found there, behaving, through the public API.
 */
export function transferRoundTrip(name: string, from: () => TransferEnd, to: () => TransferEnd, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`store export and import: ${name}`, () => {
    const ends: TransferEnd[] = [];
    const stores: Store[] = [];
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const end of ends.splice(0)) await end.cleanup();
    });
    const openEnd = async (make: () => TransferEnd, clock: AdjustableClock): Promise<Store> => {
      const end = make();
      ends.push(end);
      const store = await end.open(clock, TRANSFER_KEY);
      stores.push(store);
      return store;
    };

    it('carries queued work, order, dedupe, kv with its TTL, sealed secrets, provisioning and cron marks', async () => {
      const clock = new AdjustableClock({ start: START, frozen: true });
      const source = await openEnd(from, clock);
      const filled = await fill(source, clock);
      const text = await exportText(source);
      expect(text).not.toContain('the signing secret');
      clock.advance(MINUTE);
      const target = await openEnd(to, clock);
      expect(await target.transfer!.import(await parseStoreExport(text.split('\n')))).toMatchObject({ inbox: 4, outbox: 5, secret: 1 });

      // the waiting and the leased deliveries are taken at once; the deferred one after its time; the dead one is listed
      const taken = [];
      for (let lease = await target.inbox.reserve(30_000); lease; lease = await target.inbox.reserve(30_000)) {
        taken.push(lease.payload.deliveryId);
        await target.inbox.complete(lease);
      }
      expect(taken.sort()).toEqual(['d-leased', 'd-waiting']);
      expect((await target.inbox.list({ state: 'dead' })).map((e) => [e.payload.deliveryId, e.deadReason])).toEqual([['d-dead', 'handler threw for good']]);
      clock.advance(HOUR);
      expect((await target.inbox.reserve(30_000))?.payload).toMatchObject({ deliveryId: 'd-deferred', dedupeKey: null });
      expect(await target.inbox.accept({ tenant: 'default', bot: 'kudos', deliveryId: 'd-waiting', envelope: envelope('d-waiting') })).toEqual({
        accepted: false,
        duplicateOf: 'delivery',
      });
      expect(await target.inbox.accept({ tenant: 'default', bot: 'kudos', deliveryId: 'd-new', dedupeKey: 'post:1', envelope: envelope('d-new') })).toEqual({
        accepted: false,
        duplicateOf: 'dedupe_key',
      });

      // the outbox keeps its ids and its order per target, one in flight per target
      const sent: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        const leases = await target.outbox.reserveMany(30_000, 10);
        expect(leases.length).toBeLessThanOrEqual(2);
        for (const lease of leases) {
          sent.push(lease.id);
          await target.outbox.complete(lease);
        }
      }
      expect(sent.filter((id) => filled.outboxA.includes(id))).toEqual(filled.outboxA);
      expect(sent.filter((id) => filled.outboxB.includes(id))).toEqual(filled.outboxB);

      // the kv item with a TTL had 10 minutes at export: 1 minute passed before, 1 hour after the import
      expect(await target.kv('bot:kudos').get('cursor')).toEqual({ since: '2026-01-01' });
      expect(await target.kv('bot:kudos').get('cache')).toBeUndefined();
      expect(await target.secrets.get('webhook:default:kudos')).toBe('the signing secret');
      expect(await target.provisioning.get('default', 'bot_user', 'kudos')).toMatchObject({ remoteId: 42 });
      expect(await target.claims.claim('cron:default:kudos:digest:2026-11-22T09:00', HOUR)).toBe(false);
    });

    it('keeps the remaining TTL of a kv item', async () => {
      const clock = new AdjustableClock({ start: START, frozen: true });
      const source = await openEnd(from, clock);
      await source.kv('cache').set('wall', 'x', { ttlMs: 10 * MINUTE });
      clock.advance(4 * MINUTE);
      const text = await exportText(source);
      const target = await openEnd(to, clock);
      await target.transfer!.import(await parseStoreExport(text.split('\n')));
      clock.advance(6 * MINUTE - 1);
      expect(await target.kv('cache').get('wall')).toBe('x');
      clock.advance(1);
      expect(await target.kv('cache').get('wall')).toBeUndefined();
    });
  });
}
