import type { QueueOps, TypedQueueEntry } from '../../store/queue';
import type { Store } from '../../store/store';
import type { RuntimeMetrics } from './metrics';

/** The most entries of one state a scrape counts (a store lists at most this many at once). */
export const QUEUE_COUNT_LIMIT = 10_000;

type QueueStates = Record<'pending' | 'leased' | 'dead', number>;

/**
 * Sets the inbox's and the outbox's gauges from the store, at scrape time: entries per state (every
 * replica's, since the store is shared), the dead letters, and the deprecated outbox depth.
 */
export async function recordQueueGauges(metrics: RuntimeMetrics, store: Pick<Store, 'inbox' | 'outbox'>): Promise<void> {
  const outbox = await queueStates(store.outbox);
  for (const state of ['pending', 'leased', 'dead'] as const) metrics.outboxEntries.set({ state }, outbox[state]);
  metrics.outboxDead.set(outbox.dead);
  metrics.outboxDepthDeprecated.set(outbox.pending + outbox.leased);
  const inbox = await queueStates(store.inbox);
  for (const state of ['pending', 'leased', 'dead'] as const) metrics.inboxEntries.set({ state }, inbox[state]);
  metrics.inboxDead.set(inbox.dead);
}

/** A queue's entries per state, as the store lists them: past `QUEUE_COUNT_LIMIT` of one list a gauge stays at the limit. */
async function queueStates(queue: Pick<QueueOps<TypedQueueEntry>, 'list'>): Promise<QueueStates> {
  const live = await queue.list({ state: 'live', limit: QUEUE_COUNT_LIMIT });
  const dead = await queue.list({ state: 'dead', limit: QUEUE_COUNT_LIMIT });
  const leased = live.filter((entry) => entry.state === 'leased').length;
  return { pending: live.length - leased, leased, dead: dead.length };
}
