import type { Clock } from '../clock';
import type { KvSpace } from '../store/kv';
import type { InboxItem } from '../store/inbox';

/** The store's key-value space the history lives in. */
export const DELIVERY_LOG_SPACE = 'runtime:deliveries';

/** How long a handled delivery stays listed (`intrabot deliveries`). */
export const DELIVERY_LOG_TTL_MS = 6 * 60 * 60_000;

/** One delivery a bot's handlers are done with: handled, or ignored and why. */
export interface HandledDelivery {
  tenant: string;
  bot: string;
  event: string;
  deliveryId: string;
  outcome: 'handled' | 'ignored';
  /** What ran (`on.post.created`, `command status`) or why nothing did (`loop prevention: own_bot`). */
  detail: string;
  recovered: boolean;
  /** When the handling finished (ms since the epoch) and how long it took. */
  at: number;
  durationMs: number;
}

/**
 * The recent history of handled deliveries, kept in the store (every replica's) for a few hours, so
 * `intrabot deliveries` can answer "did my bot see it, and what did it do?": an ignored delivery says
 * why (loop prevention, no handler, an unknown event). Failures and dead letters stay in the inbox.
 */
export class DeliveryLog {
  constructor(
    private readonly kv: KvSpace,
    private readonly clock: Clock,
  ) {}

  async record(item: InboxItem, outcome: { status: 'handled'; what: string } | { status: 'ignored'; reason: string }, durationMs: number): Promise<void> {
    const at = this.clock.now();
    const entry: HandledDelivery = {
      tenant: item.tenant,
      bot: item.bot,
      // the short name when the receiver gave it; else the platform's, from the envelope
      event: item.event ?? String((item.envelope as { event?: unknown }).event ?? 'unknown'),
      deliveryId: item.deliveryId,
      outcome: outcome.status,
      detail: outcome.status === 'handled' ? outcome.what : outcome.reason,
      recovered: (item.envelope as { recovered?: unknown }).recovered === true,
      at,
      durationMs: Math.round(durationMs),
    };
    // keys sort by time; the delivery id keeps two at the same millisecond apart
    await this.kv.set(`${String(at).padStart(15, '0')}:${item.deliveryId}`, { ...entry }, { ttlMs: DELIVERY_LOG_TTL_MS });
  }

  /** The newest first, at most `limit`. */
  async recent(limit: number): Promise<HandledDelivery[]> {
    const items = await this.kv.list();
    return items.slice(-limit).reverse().map((item) => item.value as unknown as HandledDelivery);
  }
}
