import { z } from 'zod';
import type { Clock } from '../clock';
import { InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';
import type { BackendClaims, BackendInbox, BackendKv, BackendOutbox, BackendQueue, StoreBackend } from './backend';
import { ClaimKeySchema, ClaimOptionsSchema, TtlMsSchema, type Claims, type ClaimOptions } from './claims';
import { AcceptInputSchema, inboxItemJson, type AcceptInput, type AcceptResult, type Inbox, type InboxEntry } from './inbox';
import type { JsonValue } from './json';
import { KvKeySchema, KvNamespaceSchema, KvSetOptionsSchema, type KvItem, type KvSetOptions, type KvSpace } from './kv';
import { createProvisioningState } from './provisioning';
import {
  EnqueueInputSchema,
  LeaseMsSchema,
  ListQueueInputSchema,
  NotBeforeSchema,
  ReasonSchema,
  ReserveMaxSchema,
  TargetSchema,
  type EnqueueInput,
  type LeaseRef,
  type ListQueueInput,
  type OutboxQueue,
  type QueueEntry,
  type QueueLease,
  type TypedQueueEntry,
} from './queue';
import { readInboxEntry } from './read-inbox-entry';
import {
  RateKeySchema,
  RateObservationSchema,
  RateWindowSchema,
  type RateDecision,
  type RateObservation,
  type RateWindow,
  type SharedRateBudget,
} from './rate-budget';
import { createSecrets } from './secrets';
import type { Store } from './store';
import { createStoreTransfer } from './store-transfer';

/** What the shared parts of a store need besides the backend. */
export interface AssembleDeps {
  clock: Clock;
  /** From `resolveSecretKey`; without it the store opens but `secrets` throws `secret_key_missing`. */
  secretKey?: string | undefined;
}

const IdSchema = z.string();

const NO_WAKE_UPS = (): void => undefined;

/**
 * The store the runtime uses, over a backend: every argument checked here, once, naming the field, before
 * the backend sees it (bad input changes nothing); inbox entries read back as deliveries (an unreadable one
 * dead-lettered with the reason when it is handed out, and listed with it); secrets sealed with the key;
 * provisioning records in kv.
 *
 * @example
 * const store = assembleStore(await openPostgresBackend(config, deps), { clock, secretKey });
 */
export function assembleStore(backend: StoreBackend, deps: AssembleDeps): Store {
  const kv = (namespace: string): KvSpace => new CheckedKv(backend.kv(parseOrThrow(KvNamespaceSchema, namespace, 'namespace')));
  const transfer = createStoreTransfer(backend, deps);
  return {
    ...(transfer ? { transfer } : {}),
    kind: backend.kind,
    inbox: new CheckedInbox(backend.inbox),
    outbox: new CheckedOutbox(backend.outbox),
    claims: new CheckedClaims(backend.claims),
    rate: new CheckedRate(backend.rate),
    secrets: createSecrets(backend.secrets, deps.secretKey),
    provisioning: createProvisioningState(kv, deps.clock),
    kv,
    schemaVersion: () => backend.schemaVersion(),
    ping: () => backend.ping(),
    watch: (listener) => backend.watch?.(listener) ?? NO_WAKE_UPS,
    close: () => backend.close(),
  };
}

/** The queue operations both queues share, checked; `read` types what the backend hands back. */
abstract class CheckedQueue<E extends TypedQueueEntry> {
  protected constructor(protected readonly queue: BackendQueue) {}

  protected abstract read(entry: QueueEntry): E;

  async reserve(leaseMs: number): Promise<QueueLease<E> | null> {
    return (await this.reserveMany(leaseMs, 1))[0] ?? null;
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease<E>[]> {
    const leases = await this.queue.reserveMany(parseOrThrow(LeaseMsSchema, leaseMs, 'leaseMs'), parseOrThrow(ReserveMaxSchema, max, 'max'));
    return this.readLeases(leases);
  }

  /** The leases as typed entries: an entry its reader marks unreadable is dead-lettered with the reason, not handed out. */
  protected async readLeases(leases: QueueLease[]): Promise<QueueLease<E>[]> {
    return leases.map((lease) => ({ ...this.read(lease), leaseToken: lease.leaseToken }));
  }

  async complete(lease: LeaseRef): Promise<boolean> {
    return this.queue.complete(leaseOf(lease));
  }

  async retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> {
    return this.queue.retry(leaseOf(lease), parseOrThrow(NotBeforeSchema, notBeforeMs, 'notBeforeMs'), parseOrThrow(ReasonSchema, error, 'error'));
  }

  async defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> {
    return this.queue.defer(leaseOf(lease), parseOrThrow(NotBeforeSchema, notBeforeMs, 'notBeforeMs'), parseOrThrow(ReasonSchema, note, 'note'));
  }

  async deadLetter(lease: LeaseRef, reason: string): Promise<boolean> {
    return this.queue.deadLetter(leaseOf(lease), parseOrThrow(ReasonSchema, reason, 'reason'));
  }

  async extend(lease: LeaseRef, leaseMs: number): Promise<boolean> {
    return this.queue.extend(leaseOf(lease), parseOrThrow(LeaseMsSchema, leaseMs, 'leaseMs'));
  }

  async get(id: string): Promise<E | undefined> {
    const entry = await this.queue.get(parseOrThrow(IdSchema, id, 'id'));
    return entry && this.read(entry);
  }

  async list(input: ListQueueInput = {}): Promise<E[]> {
    return (await this.queue.list(parseOrThrow(ListQueueInputSchema, input, 'list'))).map((entry) => this.read(entry));
  }

  async requeue(id: string): Promise<boolean> {
    return this.queue.requeue(parseOrThrow(IdSchema, id, 'id'));
  }

  async drop(id: string): Promise<boolean> {
    return this.queue.drop(parseOrThrow(IdSchema, id, 'id'));
  }
}

/** A lease as the backend needs it (what `reserve` handed out; checked cheaply, as it is on every delivery's path). */
function leaseOf(lease: LeaseRef): LeaseRef {
  if (typeof lease?.id !== 'string' || typeof lease.leaseToken !== 'string')
    throw new InvalidInputError('lease', 'lease: expected a lease from reserve (id and leaseToken)');
  return lease;
}

/** The inbox: each accept checked and its stored text made before it reaches the backend (so one bad delivery cannot fail its batch-mates). */
class CheckedInbox extends CheckedQueue<InboxEntry> implements Inbox {
  constructor(private readonly inbox: BackendInbox) {
    super(inbox);
  }

  async accept(raw: AcceptInput): Promise<AcceptResult> {
    const input = parseOrThrow(AcceptInputSchema, raw, 'delivery');
    const { tenant, bot, deliveryId, dedupeKey } = input;
    return this.inbox.accept({ tenant, bot, deliveryId, dedupeKey, json: inboxItemJson(input) });
  }

  protected read(entry: QueueEntry): InboxEntry {
    return readInboxEntry(entry);
  }

  protected override async readLeases(leases: QueueLease[]): Promise<QueueLease<InboxEntry>[]> {
    const out: QueueLease<InboxEntry>[] = [];
    for (const lease of leases) {
      const entry = readInboxEntry(lease);
      if (entry.unreadable === undefined) out.push({ ...entry, leaseToken: lease.leaseToken });
      else await this.inbox.deadLetter(lease, entry.unreadable);
    }
    return out;
  }
}

class CheckedOutbox extends CheckedQueue<QueueEntry> implements OutboxQueue {
  constructor(private readonly outbox: BackendOutbox) {
    super(outbox);
  }

  protected read(entry: QueueEntry): QueueEntry {
    return entry;
  }

  async enqueue(input: EnqueueInput): Promise<QueueEntry> {
    return this.outbox.enqueue(parseOrThrow(EnqueueInputSchema, input, 'entry'));
  }

  async depth(target: string): Promise<number> {
    return this.outbox.depth(parseOrThrow(TargetSchema, target, 'target'));
  }

  async setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean> {
    return this.outbox.setAside(
      leaseOf(lease),
      parseOrThrow(TargetSchema, target, 'target'),
      parseOrThrow(NotBeforeSchema, notBeforeMs, 'notBeforeMs'),
      parseOrThrow(ReasonSchema, note, 'note'),
    );
  }
}

class CheckedClaims implements Claims {
  constructor(private readonly claims: BackendClaims) {}

  async claim(key: string, ttlMs: number, options: ClaimOptions = {}): Promise<boolean> {
    return this.claims.claim(
      parseOrThrow(ClaimKeySchema, key, 'key'),
      parseOrThrow(TtlMsSchema, ttlMs, 'ttlMs'),
      parseOrThrow(ClaimOptionsSchema, options, 'options'),
    );
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    return this.claims.renew(parseOrThrow(ClaimKeySchema, key, 'key'), parseOrThrow(TtlMsSchema, ttlMs, 'ttlMs'));
  }

  async release(key: string): Promise<boolean> {
    return this.claims.release(parseOrThrow(ClaimKeySchema, key, 'key'));
  }
}

class CheckedRate implements SharedRateBudget {
  constructor(private readonly rate: SharedRateBudget) {}

  async take(key: string, window: RateWindow): Promise<RateDecision> {
    return this.rate.take(parseOrThrow(RateKeySchema, key, 'key'), parseOrThrow(RateWindowSchema, window, 'window'));
  }

  async observe(key: string, observation: RateObservation): Promise<void> {
    return this.rate.observe(parseOrThrow(RateKeySchema, key, 'key'), parseOrThrow(RateObservationSchema, observation, 'observation'));
  }
}

class CheckedKv implements KvSpace {
  constructor(private readonly kv: BackendKv) {}

  async get(key: string): Promise<JsonValue | undefined> {
    return this.kv.get(parseOrThrow(KvKeySchema, key, 'key'));
  }

  async set(key: string, value: JsonValue, options: KvSetOptions = {}): Promise<void> {
    const checkedKey = parseOrThrow(KvKeySchema, key, 'key');
    const { ttlMs } = parseOrThrow(KvSetOptionsSchema, options, 'options');
    const json = JSON.stringify(value);
    if (json === undefined) throw new InvalidInputError('value', 'value: expected a JSON value');
    return this.kv.set(checkedKey, json, ttlMs);
  }

  async delete(key: string): Promise<boolean> {
    return this.kv.delete(parseOrThrow(KvKeySchema, key, 'key'));
  }

  async list(prefix = ''): Promise<KvItem[]> {
    return this.kv.list(parseOrThrow(z.string(), prefix, 'prefix'));
  }
}
