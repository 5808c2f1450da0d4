import { z } from 'zod';
import type { Clock } from '../../clock';
import type { KvSpace } from '../../store/kv';
import type { InboxItem } from '../../store/inbox';
import { BoundedHistory } from './bounded-history';

/** The store's key-value space the history lives in. */
export const DELIVERY_LOG_SPACE = 'runtime:deliveries';

/** How long a handled delivery stays listed (`intrabot deliveries`). */
export const DELIVERY_LOG_TTL_MS = 6 * 60 * 60_000;

/** One message a handler queued for a delivery: its kind, where it goes, and what it says (cut at 2,000 characters). */
export const SentMessageSchema = z.object({ kind: z.string(), to: z.string(), text: z.string() });
export type SentMessage = z.infer<typeof SentMessageSchema>;

/** One delivery a bot's handlers are done with: handled, or ignored and why. */
export const HandledDeliverySchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  event: z.string(),
  deliveryId: z.string(),
  outcome: z.enum(['handled', 'ignored']),
  /** What ran (`on.post.created`, `command status`) or why nothing did (`loop prevention: own_bot`). */
  detail: z.string(),
  recovered: z.boolean(),
  /** When the handling finished (ms since the epoch) and how long it took. */
  at: z.number(),
  durationMs: z.number(),
  /** What the handler queued, in order (records written before it was kept have none). */
  sends: z.array(SentMessageSchema).default([]),
});
export type HandledDelivery = z.infer<typeof HandledDeliverySchema>;

/** How many handled deliveries are kept per tenant and bot. */
export const DELIVERY_LOG_PER_BOT = 100;

/**
 * The recent history of handled deliveries, kept in the store (every replica's) so `intrabot
 * deliveries` can answer "did my bot see it, and what did it do?": an ignored delivery says why (loop
 * prevention, no handler, an unknown event). Failures and dead letters stay in the inbox.
 *
 * Bounded: one store value per tenant and bot holding its last 100, for 6 hours after the last one.
 * Appends are serialised within a process; two replicas appending to one bot at the same moment may
 * each keep only its own (a history for people, not a record anything depends on).
 */
export class DeliveryLog {
  private readonly history: BoundedHistory<HandledDelivery>;

  constructor(
    kv: KvSpace,
    private readonly clock: Clock,
  ) {
    this.history = new BoundedHistory(kv, HandledDeliverySchema, { perKey: DELIVERY_LOG_PER_BOT, ttlMs: DELIVERY_LOG_TTL_MS });
  }

  async record(
    item: InboxItem,
    outcome: { status: 'handled'; what: string; sends?: readonly SentMessage[] } | { status: 'ignored'; reason: string },
    durationMs: number,
  ): Promise<void> {
    const entry: HandledDelivery = {
      tenant: item.tenant,
      bot: item.bot,
      // the short name when the receiver gave it; else the platform's, from the envelope
      event: item.event ?? String((item.envelope as { event?: unknown }).event ?? 'unknown'),
      deliveryId: item.deliveryId,
      outcome: outcome.status,
      detail: outcome.status === 'handled' ? outcome.what : outcome.reason,
      recovered: (item.envelope as { recovered?: unknown }).recovered === true,
      at: this.clock.now(),
      durationMs: Math.round(durationMs),
      sends: outcome.status === 'handled' ? [...(outcome.sends ?? [])] : [],
    };
    await this.history.append(JSON.stringify([item.tenant, item.bot]), entry);
  }

  /** The newest first, at most `limit`, across tenants and bots. */
  async recent(limit: number): Promise<HandledDelivery[]> {
    return this.history.recent(limit);
  }
}
