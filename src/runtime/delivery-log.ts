import { z } from 'zod';
import type { Clock } from '../clock';
import type { KvSpace } from '../store/kv';
import type { InboxItem } from '../store/inbox';
import type { JsonValue } from '../store/json';

/** The store's key-value space the history lives in. */
export const DELIVERY_LOG_SPACE = 'runtime:deliveries';

/** How long a handled delivery stays listed (`intrabot deliveries`). */
export const DELIVERY_LOG_TTL_MS = 6 * 60 * 60_000;

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
});
export type HandledDelivery = z.infer<typeof HandledDeliverySchema>;

/**
 * The entries of one stored value that are handled deliveries: a value of another shape (written by
 * another version, or damaged) is skipped, never a reason for the history to fail.
 */
function readEntries(value: JsonValue | undefined): HandledDelivery[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = HandledDeliverySchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

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
  private readonly appending = new Map<string, Promise<void>>();

  constructor(
    private readonly kv: KvSpace,
    private readonly clock: Clock,
  ) {}

  async record(item: InboxItem, outcome: { status: 'handled'; what: string } | { status: 'ignored'; reason: string }, durationMs: number): Promise<void> {
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
    };
    const key = JSON.stringify([item.tenant, item.bot]);
    const previous = this.appending.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.append(key, entry));
    this.appending.set(key, next);
    try {
      await next;
    } finally {
      if (this.appending.get(key) === next) this.appending.delete(key);
    }
  }

  /** The newest first, at most `limit`, across tenants and bots. */
  async recent(limit: number): Promise<HandledDelivery[]> {
    const all = (await this.kv.list()).flatMap((item) => readEntries(item.value));
    return all.sort((a, b) => b.at - a.at).slice(0, limit);
  }

  private async append(key: string, entry: HandledDelivery): Promise<void> {
    const kept = readEntries(await this.kv.get(key));
    const next = [...kept.slice(-(DELIVERY_LOG_PER_BOT - 1)), entry];
    await this.kv.set(key, next as unknown as JsonValue, { ttlMs: DELIVERY_LOG_TTL_MS });
  }
}
