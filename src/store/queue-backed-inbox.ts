import { InboxEntrySchema, type AcceptInput, type AcceptResult, type Inbox, type InboxEntry } from './inbox';
import type { LeaseRef, ListQueueInput, QueueEntry, QueueLease, QueueOps } from './queue';

const toInboxEntry = (entry: QueueEntry): InboxEntry => InboxEntrySchema.parse(entry);

/**
 * The part of an inbox both stores share: everything but `accept` is the store's queue, with each
 * entry read back as an inbox entry. Each store's inbox adds its own durable, deduplicating `accept`.
 */
export abstract class QueueBackedInbox<Q extends QueueOps> implements Inbox {
  protected constructor(protected readonly queue: Q) {}

  abstract accept(input: AcceptInput): Promise<AcceptResult>;

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
