import type { OutboxQueue } from '../store';

/**
 * The proxy's `outboxBusy` from the store's outbox: busy while any send is queued (pending,
 * leased or waiting for a retry). Dead letters do not count: nothing will send them by itself.
 *
 * @example
 * await registerProxy(app, { ..., outboxBusy: outboxBusyFrom(store.outbox) });
 */
export function outboxBusyFrom(outbox: Pick<OutboxQueue, 'list'>): () => Promise<boolean> {
  return async () => (await outbox.list({ state: 'live', limit: 1 })).length > 0;
}
