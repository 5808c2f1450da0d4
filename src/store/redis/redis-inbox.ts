import type { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import type { JsonValue } from '../json';
import { dedupeKeys } from '../dedupe-keys';
import {
  AcceptInputSchema,
  InboxEntrySchema,
  type AcceptInput,
  type AcceptResult,
  type Inbox,
  type InboxEntry,
  type InboxItem,
} from '../inbox';
import { newEntryId, type LeaseRef, type ListQueueInput, type QueueEntry, type QueueLease } from '../queue';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { ACCEPT } from './queue-scripts';
import type { RedisQueue } from './redis-queue';

const toInboxEntry = (entry: QueueEntry): InboxEntry => InboxEntrySchema.parse(entry);

/**
 * The Redis inbox: each accept is one Lua script (dedupe check + entry), pipelined by ioredis, so no
 * batcher is needed here. Durability before the 200 is Redis's: run it with `appendonly yes` (and
 * `appendfsync everysec` or `always`) in production.
 */
export class RedisInbox implements Inbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly queue: RedisQueue,
    private readonly clock: Clock,
    private readonly dedupeTtlMs: number,
  ) {}

  async accept(raw: AcceptInput): Promise<AcceptResult> {
    const input = parseOrThrow(AcceptInputSchema, raw, 'delivery');
    const now = this.clock.now();
    const keys = dedupeKeys(input);
    const item: InboxItem = { tenant: input.tenant, bot: input.bot, deliveryId: input.deliveryId, dedupeKey: input.dedupeKey ?? null, event: input.event ?? null, envelope: input.envelope as JsonValue };
    const args = [
      this.queue.q,
      this.keys.dedupe(keys.delivery),
      keys.dedupe === undefined ? '' : this.keys.dedupe(keys.dedupe),
      now,
      now + this.dedupeTtlMs,
      this.dedupeTtlMs + GC_MARGIN_MS,
      newEntryId(now),
      JSON.stringify(item),
    ];
    const [ok, detail] = (await ACCEPT.run(this.redis, [], args)) as [number, string];
    return ok === 1 ? { accepted: true, id: detail } : { accepted: false, duplicateOf: detail === 'delivery' ? 'delivery' : 'dedupe_key' };
  }

  async reserve(leaseMs: number): Promise<QueueLease<InboxEntry> | null> {
    const lease = await this.queue.reserve(leaseMs);
    return lease ? { ...toInboxEntry(lease), leaseToken: lease.leaseToken } : null;
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease<InboxEntry>[]> {
    const leases = await this.queue.reserveMany(leaseMs, max);
    return leases.map((lease) => ({ ...toInboxEntry(lease), leaseToken: lease.leaseToken }));
  }

  complete = (lease: LeaseRef): Promise<boolean> => this.queue.complete(lease);
  retry = (lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> => this.queue.retry(lease, notBeforeMs, error);
  deadLetter = (lease: LeaseRef, reason: string): Promise<boolean> => this.queue.deadLetter(lease, reason);
  extend = (lease: LeaseRef, leaseMs: number): Promise<boolean> => this.queue.extend(lease, leaseMs);
  requeue = (id: string): Promise<boolean> => this.queue.requeue(id);
  drop = (id: string): Promise<boolean> => this.queue.drop(id);

  async get(id: string): Promise<InboxEntry | undefined> {
    const entry = await this.queue.get(id);
    return entry && toInboxEntry(entry);
  }

  async list(input?: ListQueueInput): Promise<InboxEntry[]> {
    return (await this.queue.list(input)).map(toInboxEntry);
  }
}
