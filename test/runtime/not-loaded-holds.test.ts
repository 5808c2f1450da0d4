import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { heldBotNames, holdIfNotLoaded, NOT_LOADED_NOTE, releaseNotLoadedHolds } from '../../src/runtime/ingest/not-loaded-holds';
import type { Store } from '../../src/store';
import { HOLD_MS } from '../../src/store/paused-bots';
import { tempStore } from '../helpers/temp-store';

describe('deliveries of a bot that failed to load', () => {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 5, 1, 9), frozen: true });
  let store: Store | undefined;
  afterEach(async () => store?.close());

  const accept = (s: Store, bot: string, id: string) =>
    s.inbox.accept({ tenant: 'sandbox', bot, deliveryId: id, envelope: { id, event: 'service.post.created', payload: { id: 1 } }, event: 'post.created' });

  it('holds only bots whose name no loaded bot took (a valid bot of the same name runs: issue #12)', () => {
    expect([...heldBotNames(['greeter', 'echo'], [{ name: 'echo' }])]).toEqual(['greeter']);
  });

  it('puts a held delivery off without counting a try, and hands it back once a runtime loads its bot', async () => {
    store = await tempStore(clock);
    await accept(store, 'greeter', 'd-1');
    await accept(store, 'other', 'd-2');
    const held = new Set(['greeter', 'other']);
    for (let n = 0; n < 2; n += 1) {
      const lease = (await store.inbox.reserve(60_000))!;
      expect(await holdIfNotLoaded(held, store.inbox, lease, clock.now())).toBe(true);
    }
    const waiting = await store.inbox.list({ state: 'live' });
    expect(waiting.map((e) => [e.payload.bot, e.attempts, e.lastError, e.notBefore])).toEqual([
      ['greeter', 0, NOT_LOADED_NOTE, clock.now() + HOLD_MS],
      ['other', 0, NOT_LOADED_NOTE, clock.now() + HOLD_MS],
    ]);
    expect(await store.inbox.reserve(60_000)).toBeNull();

    // the next runtime loads greeter only: its delivery is due now, the other bot's stays held
    expect(await releaseNotLoadedHolds(store.inbox, [{ name: 'greeter' }])).toBe(1);
    const next = await store.inbox.reserve(60_000);
    expect(next?.payload.bot).toBe('greeter');
    expect(await holdIfNotLoaded(new Set(['other']), store.inbox, next!, clock.now())).toBe(false);
    expect(await store.inbox.reserve(60_000)).toBeNull();
  });
});
