import { InboxEntrySchema, type AcceptInput, type AcceptResult, type Inbox, type InboxEntry, type InboxItem } from './inbox';
import type { LeaseRef, ListQueueInput, QueueEntry, QueueLease, QueueOps } from './queue';

/**
 * A stored entry as an inbox entry. One that cannot be read (not JSON, not a delivery, or nested too deep
 * for the reader: a RangeError from the schema's walk) comes back marked `unreadable` with what could be
 * read, instead of throwing: one bad row must not fail every listing and every reserve that meets it.
 */
export function readInboxEntry(entry: QueueEntry): InboxEntry {
  if (entry.unreadable !== undefined) return unreadableEntry(entry, entry.unreadable);
  let problem: string;
  try {
    const parsed = InboxEntrySchema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    problem = `the stored delivery is not one the runtime can read: ${issue?.path.map(String).join('.') || 'entry'}: ${issue?.message ?? 'is invalid'}`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    problem = 'the stored delivery nests too deeply to be read';
  }
  return unreadableEntry(entry, problem);
}

/** What can be told about an unreadable entry: the delivery's names when they are strings, no envelope. */
function unreadableEntry(entry: QueueEntry, reason: string): InboxEntry {
  const raw = (typeof entry.payload === 'object' && entry.payload !== null && !Array.isArray(entry.payload) ? entry.payload : {}) as Record<string, unknown>;
  const text = (key: keyof InboxItem): string | null => {
    const value = raw[key];
    return typeof value === 'string' ? value : null;
  };
  const payload: InboxItem = {
    tenant: text('tenant') ?? '?',
    bot: text('bot') ?? '?',
    deliveryId: text('deliveryId') ?? '?',
    dedupeKey: text('dedupeKey'),
    event: text('event'),
    envelope: null,
  };
  return { ...entry, payload, unreadable: reason };
}

/**
 * The part of an inbox both stores share: everything but `accept` is the store's queue, with each
 * entry read back as an inbox entry. Each store's inbox adds its own durable, deduplicating `accept`.
 * An entry that cannot be read is dead-lettered with the reason when it is handed out, never handed to
 * the router, and listed with the reason.
 */
export abstract class QueueBackedInbox<Q extends QueueOps> implements Inbox {
  protected constructor(protected readonly queue: Q) {}

  abstract accept(input: AcceptInput): Promise<AcceptResult>;

  async reserve(leaseMs: number): Promise<QueueLease<InboxEntry> | null> {
    return (await this.reserveMany(leaseMs, 1))[0] ?? null;
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease<InboxEntry>[]> {
    const leases: QueueLease<InboxEntry>[] = [];
    for (const lease of await this.queue.reserveMany(leaseMs, max)) {
      const entry = readInboxEntry(lease);
      if (entry.unreadable === undefined) leases.push({ ...entry, leaseToken: lease.leaseToken });
      else await this.queue.deadLetter(lease, entry.unreadable);
    }
    return leases;
  }

  complete = (lease: LeaseRef): Promise<boolean> => this.queue.complete(lease);
  retry = (lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> => this.queue.retry(lease, notBeforeMs, error);
  defer = (lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> => this.queue.defer(lease, notBeforeMs, note);
  deadLetter = (lease: LeaseRef, reason: string): Promise<boolean> => this.queue.deadLetter(lease, reason);
  extend = (lease: LeaseRef, leaseMs: number): Promise<boolean> => this.queue.extend(lease, leaseMs);
  requeue = (id: string): Promise<boolean> => this.queue.requeue(id);
  drop = (id: string): Promise<boolean> => this.queue.drop(id);

  async get(id: string): Promise<InboxEntry | undefined> {
    const entry = await this.queue.get(id);
    return entry && readInboxEntry(entry);
  }

  async list(input?: ListQueueInput): Promise<InboxEntry[]> {
    return (await this.queue.list(input)).map(readInboxEntry);
  }
}
