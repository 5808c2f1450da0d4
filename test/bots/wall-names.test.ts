import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntrabotApi } from '../../src/api/create-api-client';
import { AdjustableClock } from '../../src/clock';
import { WALLS_KV, WallNames, WallNotFoundError } from '../../src/bots/provision/wall-names';
import type { Store } from '../../src/store';
import { tempStore } from '../helpers/temp-store';

/** A platform with these walls, counting the listings it was asked for; a listing waits until `release`. */
function platformWith(walls: { id: number; name: string }[]) {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const counts = { listings: 0 };
  const api = {
    walls: {
      all: async function* () {
        counts.listings += 1;
        await gate;
        yield* walls;
      },
    },
  } as unknown as Pick<IntrabotApi, 'walls'>;
  return {
    api,
    counts,
    hold: (): void => {
      gate = new Promise<void>((r) => (release = r));
    },
    release: () => release(),
  };
}

describe('wall names', () => {
  let clock: AdjustableClock;
  let store: Store;

  beforeEach(async () => {
    clock = new AdjustableClock({ frozen: true, start: Date.UTC(2026, 7, 20, 9) });
    store = await tempStore(clock);
  });
  afterEach(async () => store.close());

  const namesOn = (platform: ReturnType<typeof platformWith>) => new WallNames({ tenant: 'default', api: platform.api, clock, kv: store.kv(WALLS_KV) });

  it('answers from the stored listing alone: unlisted before any listing, then found (any case) or missing, with no request', async () => {
    const platform = platformWith([{ id: 4, name: 'Operations' }]);
    const walls = namesOn(platform);
    expect(await walls.lookup('Operations')).toEqual({ kind: 'unlisted' });
    await walls.relist();
    expect(await walls.lookup('operations')).toEqual({ kind: 'found', id: 4 });
    expect(await walls.lookup('Operatons')).toEqual({ kind: 'missing', listedAt: clock.now() });
    expect(platform.counts.listings).toBe(1);
  });

  it('shares the stored listing with another process (a replica, or this one after a restart)', async () => {
    await namesOn(platformWith([{ id: 4, name: 'Operations' }])).relist();
    const elsewhere = platformWith([]);
    expect(await namesOn(elsewhere).resolve('Operations')).toBe(4);
    expect(elsewhere.counts.listings).toBe(0);
  });

  it('lists the walls once for concurrent resolutions when they were never listed', async () => {
    const platform = platformWith([
      { id: 4, name: 'Operations' },
      { id: 1, name: 'Company' },
    ]);
    const walls = namesOn(platform);
    platform.hold();
    const relist = vi.spyOn(walls, 'relist');
    const answers = Promise.all([walls.resolve('Operations'), walls.resolve('Company'), walls.resolve('operations')]);
    // all three are waiting for a listing before the platform answers the first
    while (relist.mock.calls.length < 3) await new Promise(setImmediate);
    platform.release();
    expect(await answers).toEqual([4, 1, 4]);
    expect(platform.counts.listings).toBe(1);
  });

  it('remembers a name the listing lacks: resolving it again refuses at once, naming the field and the wall, without a request', async () => {
    const platform = platformWith([{ id: 4, name: 'Operations' }]);
    const walls = namesOn(platform);
    await expect(walls.resolve('Operatons', 'targets.ops.wall')).rejects.toThrow(WallNotFoundError);
    await expect(walls.resolve('Operatons', 'targets.ops.wall')).rejects.toThrow(/targets\.ops\.wall: no wall named "Operatons" on tenant default/);
    expect(platform.counts.listings).toBe(1);
  });
});
