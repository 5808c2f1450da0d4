import type { Store } from '../../src/store/store';
import { settle, storeLiveWork, type SettleOptions } from '../../src/testing/settle';

/**
 * `pair.settle()` for a test that builds its runtime (or its replicas) itself: resolves once the sandbox
 * has no delivery in flight and the store's inbox and outbox hold no live work, twice in a row. `store`
 * is the runtime's store, or one opened on the store the replicas share (the same Redis prefix).
 */
export function settleStore(store: Store, platform: { settleDeliveries(): Promise<void> }, options: SettleOptions = {}): Promise<void> {
  return settle({ settleDeliveries: () => platform.settleDeliveries(), liveWork: () => storeLiveWork(store, options.bots) }, options);
}
