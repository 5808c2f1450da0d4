import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { HELD_NOTE, HOLD_MS, holdIfPaused, PAUSED_BOTS_SPACE, PAUSED_VIEW_MS, PausedBots } from '../../src/store/paused-bots';

describe('paused bots in the store', () => {
  let dir: string;
  let clock: AdjustableClock;
  let store: Store;
  let here: PausedBots;
  let elsewhere: PausedBots;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intrabot-paused-'));
    clock = new AdjustableClock({ frozen: true, start: Date.parse('2026-03-02T10:00:00Z') });
    store = await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'paused-bots-test-key' });
    // two replicas' views of one store
    here = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
    elsewhere = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const accept = async (deliveryId: string): Promise<void> => {
    await store.inbox.accept({ tenant: 't1', bot: 'kudos', deliveryId, envelope: { id: deliveryId, event: 'service.post.created', payload: {} } });
  };

  it("sees another replica's pause once its view is older than PAUSED_VIEW_MS, and its resume likewise", async () => {
    expect(await elsewhere.isPaused('t1', 'kudos')).toBe(false);
    await here.pause('t1', 'kudos', 'posting twice');
    expect(await here.isPaused('t1', 'kudos')).toBe(true);
    expect(await elsewhere.isPaused('t1', 'kudos')).toBe(false);
    clock.advance(PAUSED_VIEW_MS);
    expect(await elsewhere.isPaused('t1', 'kudos')).toBe(true);
    expect(await elsewhere.isPaused('t1', 'other')).toBe(false);
    await here.resume('t1', 'kudos');
    clock.advance(PAUSED_VIEW_MS);
    expect(await elsewhere.isPaused('t1', 'kudos')).toBe(false);
  });

  it('keeps when a pause began when it is asked again, with the new reason', async () => {
    const first = await here.pause('t1', 'kudos', 'first');
    clock.advance(60_000);
    const again = await here.pause('t1', 'kudos', 'second');
    expect(again).toEqual({ tenant: 't1', bot: 'kudos', reason: 'second', since: first.since });
    expect(await here.list()).toEqual([again]);
    expect(await here.resume('t1', 'kudos')).toEqual(again);
    expect(await here.resume('t1', 'kudos')).toBeUndefined();
  });

  it("holds a paused bot's entry until HOLD_MS without counting it as a try, and holds nothing for a running bot", async () => {
    await accept('d-1');
    const running = await store.inbox.reserve(10_000);
    expect(await holdIfPaused(here, store.inbox, running!, { tenant: 't1', bot: 'kudos' }, clock.now())).toBe(false);
    await store.inbox.complete(running!);

    await here.pause('t1', 'kudos', null);
    await accept('d-2');
    const lease = await store.inbox.reserve(10_000);
    expect(await holdIfPaused(here, store.inbox, lease!, { tenant: 't1', bot: 'kudos' }, clock.now())).toBe(true);
    expect(await store.inbox.get(lease!.id)).toMatchObject({ state: 'pending', attempts: 0, lastError: HELD_NOTE, notBefore: clock.now() + HOLD_MS });
    expect(await store.inbox.reserve(10_000)).toBeNull();
  });

  it('releases an entry it held on a stale view when the bot was resumed meanwhile on another replica', async () => {
    await elsewhere.pause('t1', 'kudos', null);
    expect(await here.isPaused('t1', 'kudos')).toBe(true);
    await elsewhere.resume('t1', 'kudos');
    // this replica's view still says paused (not PAUSED_VIEW_MS old yet): it holds, then sees the resume in the store
    await accept('d-3');
    const lease = await store.inbox.reserve(10_000);
    expect(await holdIfPaused(here, store.inbox, lease!, { tenant: 't1', bot: 'kudos' }, clock.now())).toBe(true);
    expect(await store.inbox.reserve(10_000)).toMatchObject({ id: lease!.id });
  });
});
