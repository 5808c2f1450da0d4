import type { AdjustableClock } from '../../src/clock';
import type { Store } from '../../src/store';
import { openTempStore, rig, runClockUntil, startPlatform, type Platform, type Rig, type TestSenderOptions } from './helpers';

export interface PlatformRig extends Rig {
  clock: AdjustableClock;
  platform: Platform;
  store: Store;
  /** Runs the frozen clock fast until `done()` holds. */
  run(done: () => boolean | Promise<boolean>, opts?: Parameters<typeof runClockUntil>[2]): Promise<boolean>;
  close(): Promise<void>;
}

/** The sandbox, a temporary SQLite store and an outbox with its sender, all on one frozen clock. */
export async function openPlatformRig(clock: AdjustableClock, options: TestSenderOptions & { headersTimeoutMs?: number } = {}): Promise<PlatformRig> {
  const platform = await startPlatform(clock);
  const temp = await openTempStore(clock);
  const parts = rig(temp.store, clock, platform.baseUrl, options);
  return {
    ...parts,
    clock,
    platform,
    store: temp.store,
    run: (done, opts) => runClockUntil(clock, done, opts),
    async close() {
      await parts.sender.stop(0);
      await parts.client.close();
      await temp.close();
      await platform.close();
    },
  };
}
