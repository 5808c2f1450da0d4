import { randomFillSync } from 'node:crypto';
import { z } from 'zod';
import { JsonValueSchema, type JsonValue } from './json';

/**
 * One entry of a durable queue (the inbox or the outbox) as the store reports it.
 * `state` is computed at read time: `leased` while a lease runs, `pending` otherwise (also once a lease
 * expired unfinished: the entry is then handed out again), `dead` once dead-lettered.
 */
export const QueueEntrySchema = z.object({
  id: z.string(),
  /** Entries with the same target are handed out in order, one at a time. */
  target: z.string(),
  payload: JsonValueSchema,
  state: z.enum(['pending', 'leased', 'dead']),
  /** How many times the entry was handed out (a lease that expired counts). */
  attempts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  deadReason: z.string().nullable(),
  enqueuedAt: z.number(),
  /** Not handed out before this time (ms since epoch, on the store's clock). */
  notBefore: z.number(),
  /** While leased: when the lease runs out. */
  leaseUntil: z.number().nullable(),
  /**
   * Set when the stored payload cannot be read (not JSON, or not what the queue's reader expects): why.
   * `payload` then holds what could be read. Such an entry is dead-lettered with this reason the next
   * time it is handed out, instead of failing every read that meets it.
   */
  unreadable: z.string().optional(),
});
export type QueueEntry = z.infer<typeof QueueEntrySchema>;

/**
 * How many leases in a row may run out with no word from their holder (no complete, retry or dead
 * letter) before the store dead-letters the entry instead of handing it out again: an entry whose every
 * holder crashes, hangs or cannot read it would otherwise come back forever.
 */
export const MAX_LOST_LEASES = 3;

export const LOST_LEASES_REASON =
  `its last ${MAX_LOST_LEASES} leases ran out with no answer from their holder ` + '(the process handling it stopped, crashed or could not read it each time)';

export const UNREADABLE_PAYLOAD_REASON = 'the stored payload is not valid JSON';

/** A stored payload's text, parsed; a text that is not JSON yields `null` and the reason instead of a throw. */
export function readStoredPayload(text: string | undefined): { payload: JsonValue; unreadable?: string } {
  try {
    return { payload: JSON.parse(text ?? 'null') as JsonValue };
  } catch {
    // the parser's message quotes the text: it stays out of reasons and logs
    return { payload: null, unreadable: UNREADABLE_PAYLOAD_REASON };
  }
}

/**
 * A queue entry whose payload a reader has typed (an `InboxEntry`, say): any payload, since a typed one
 * may have optional fields, which a strict consumer (`exactOptionalPropertyTypes`) does not count as JSON.
 */
export type TypedQueueEntry = Omit<QueueEntry, 'payload'> & { payload: unknown };

/** A handed-out entry; its `leaseToken` proves the holder when completing, retrying or dead-lettering. */
export type QueueLease<E extends TypedQueueEntry = QueueEntry> = E & { leaseToken: string };

/** What `complete`/`retry`/`deadLetter` need from a lease. */
export interface LeaseRef {
  id: string;
  leaseToken: string;
}

export const EnqueueInputSchema = z.object({
  target: z.string().min(1),
  payload: JsonValueSchema,
  /** Optional caller-chosen id (idempotent enqueue is not implied: a second enqueue with the same id fails). */
  id: z.string().min(1).optional(),
  notBeforeMs: z.number().int().nonnegative().optional(),
});
export type EnqueueInput = z.input<typeof EnqueueInputSchema>;

export const LeaseMsSchema = z.number().int().positive();
export const NotBeforeSchema = z.number().finite().nonnegative();
export const ReasonSchema = z.string().max(10_000);
/** A target (order key) a caller names. */
export const TargetSchema = z.string().min(1);
export const ReserveMaxSchema = z.number().int().positive().max(1_000);

export const ListQueueInputSchema = z.object({
  state: z.enum(['live', 'dead']).default('live'),
  target: z.string().min(1).optional(),
  limit: z.number().int().positive().max(10_000).default(100),
});
export type ListQueueInput = z.input<typeof ListQueueInputSchema>;

/**
 * The operations both durable queues share. Entries are handed out with a lease (a visibility timeout):
 * an entry whose holder crashed comes back once the lease runs out, so nothing acknowledged is lost;
 * `complete` deletes the entry in the same atomic step that checks the lease, so nothing completed is
 * redone. Operations that need a lease return `false` when the lease was lost (expired and re-taken).
 * Errors and reasons are stored and shown by the CLI: they must never carry a secret.
 *
 * @example
 * const lease = await store.outbox.reserve(30_000);
 * if (lease) {
 *   try { await send(lease.payload); await store.outbox.complete(lease); }
 *   catch (e) { await store.outbox.retry(lease, clock.now() + 5_000, String(e)); }
 * }
 */
export interface QueueOps<E extends TypedQueueEntry = QueueEntry> {
  /**
   * Hand out the next available entry (the head of its target, due, not leased), or null. An entry that
   * cannot be read (`unreadable`), or whose last `MAX_LOST_LEASES` leases ran out unanswered, is moved to
   * the dead letters with the reason instead, and the next one is looked for.
   */
  reserve(leaseMs: number): Promise<QueueLease<E> | null>;
  /** Up to `max` available entries in one atomic step (one commit): the router's way to fill its slots. */
  reserveMany(leaseMs: number, max: number): Promise<QueueLease<E>[]>;
  /** Done: the entry is deleted. */
  complete(lease: LeaseRef): Promise<boolean>;
  /** Failed for now: back in line (still the head of its target) from `notBeforeMs`, `error` recorded. */
  retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean>;
  /**
   * Not now, and not a failure (its bot is paused): back in line (still the head of its target) from
   * `notBeforeMs`, `note` recorded as its last error, and this hand-out not counted in `attempts`.
   */
  defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean>;
  /** Failed for good: moves to the dead-letter list with `reason`; the target's next entry proceeds. */
  deadLetter(lease: LeaseRef, reason: string): Promise<boolean>;
  /** Keep a long-running lease alive for another `leaseMs`. */
  extend(lease: LeaseRef, leaseMs: number): Promise<boolean>;
  get(id: string): Promise<E | undefined>;
  /** Live entries in order (`state: 'live'`, default) or dead letters, oldest first. */
  list(input?: ListQueueInput): Promise<E[]>;
  /**
   * Put a dead letter back at the end of its target's line (attempts reset), or make a waiting
   * entry due now. False when there is no such entry or it is leased.
   */
  requeue(id: string): Promise<boolean>;
  /** Delete a dead letter or a pending entry for good. False when there is no such entry or it is leased. */
  drop(id: string): Promise<boolean>;
}

/** The outbox's queue: entries keep order per `target` (FIFO, one in flight per target). */
export interface OutboxQueue extends QueueOps {
  /** Persisted (committed) before the promise resolves. */
  enqueue(input: EnqueueInput): Promise<QueueEntry>;
  /** Live (pending or leased) entries of one target: the outbox coalesces when this grows. */
  depth(target: string): Promise<number>;
  /**
   * As `defer`, and out of its target's line: the held entry goes to the end of `target`'s line (a line
   * of held entries), so the entries behind it in its own line proceed meanwhile (a paused bot's message
   * does not hold up another bot's to the same wall). False when the lease was lost.
   */
  setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean>;
}

/** A random lease token / owner id. */
export { randomUUID as newId } from 'node:crypto';

/**
 * A queue entry's id: a UUIDv7 (48-bit millisecond time, then random), so ids sort by creation time and
 * new rows land at the right edge of SQLite's id index instead of at random pages: this halves the cost
 * of an inbox insert under load.
 */
export function newEntryId(nowMs: number): string {
  const bytes = randomSixteen();
  bytes.writeUIntBE(Math.max(0, Math.floor(nowMs)) % 2 ** 48, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Random bytes from the CSPRNG drawn 2 KiB at a time, as `randomUUID` draws its own: one call per 128
 * ids instead of one each (a `randomBytes(16)` costs ~5 µs on a small VM, on every delivery of the Redis
 * inbox). Each id gets 16 bytes of the pool no other id gets.
 */
const RANDOM_POOL = Buffer.alloc(2048);
let poolOffset = RANDOM_POOL.length;

function randomSixteen(): Buffer {
  if (poolOffset + 16 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolOffset = 0;
  }
  const bytes = RANDOM_POOL.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  return bytes;
}

export type { JsonValue };
