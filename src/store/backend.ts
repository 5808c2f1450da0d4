import type { z } from 'zod';
import type { Clock } from '../clock';
import type { AcceptResult } from './inbox';
import type { JsonValue } from './json';
import type { KvItem } from './kv';
import type { EnqueueInputSchema, LeaseRef, ListQueueInputSchema, QueueEntry, QueueLease } from './queue';
import type { SharedRateBudget } from './rate-budget';
import type { SealedSecretStorage } from './secrets';
import type { StoreRecord } from './store-records';

/**
 * What a store backend implements: only what must be atomic in its engine. The store the runtime sees
 * (`assembleStore`) is built on it in shared code: every argument is checked there, once, before a
 * backend method is called (so a backend trusts its arguments, defaults filled in); inbox entries are
 * read and the unreadable ones dead-lettered there; secrets are sealed there; provisioning records live
 * in kv. The contract suite (test/store/contract.ts) is the judge of every backend.
 *
 * A backend registers a factory (`registerStoreBackend`); `openStore` finds it by the config's `kind`.
 */
export interface StoreBackend {
  /** The config's `kind`: `sqlite`, `redis`, `postgres`. */
  readonly kind: string;
  readonly inbox: BackendInbox;
  readonly outbox: BackendOutbox;
  readonly claims: BackendClaims;
  /** The shared request budget, atomic across replicas (`SharedRateBudget`'s rules: `decideTake` and friends). */
  readonly rate: SharedRateBudget;
  /** Sealed secrets by name, and the store's salt. */
  readonly secrets: SealedSecretStorage;
  /** A key-value space; `namespace` is a non-empty string. */
  kv(namespace: string): BackendKv;
  /** The schema version the backend is at (after its migrations). */
  schemaVersion(): Promise<number>;
  /** Resolves when the backend answers a read now; bounded in time (`/readyz`). */
  ping(): Promise<void>;
  /**
   * Everything the backend holds that must survive a move to another backend, as records
   * (`store-records.ts`): read from one consistent snapshot where the engine has one. Absent: the backend
   * cannot be exported (`intrabot store export` says so).
   */
  dump?(): AsyncIterable<StoreRecord>;
  /**
   * Writes checked records (in file order) into this backend, all or nothing: a failure part-way leaves
   * nothing written, so an import that crashed is simply run again. Called only on a backend whose `dump`
   * yields no data (`store-transfer.ts` checks).
   */
  restore?(records: readonly StoreRecord[]): Promise<void>;
  /** Wake-ups from other processes (see `Store.watch`); absent: the workers poll. */
  watch?(listener: (queue: 'inbox' | 'outbox') => void): () => void;
  /** Flushes pending writes and closes connections; a second call does nothing. */
  close(): Promise<void>;
}

/** `list`'s input with its defaults filled in. */
export type ListQueueOptions = z.output<typeof ListQueueInputSchema>;

/**
 * A leased queue with per-target order (the outbox's targets; each inbox entry is its own target), as
 * `QueueOps` describes it: leases, the lost-lease and unreadable-payload dead letters, requeue and drop.
 */
export interface BackendQueue {
  /** Up to `max` available entries, leased in one atomic step. */
  reserveMany(leaseMs: number, max: number): Promise<QueueLease[]>;
  complete(lease: LeaseRef): Promise<boolean>;
  retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean>;
  defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean>;
  deadLetter(lease: LeaseRef, reason: string): Promise<boolean>;
  extend(lease: LeaseRef, leaseMs: number): Promise<boolean>;
  get(id: string): Promise<QueueEntry | undefined>;
  list(input: ListQueueOptions): Promise<QueueEntry[]>;
  requeue(id: string): Promise<boolean>;
  drop(id: string): Promise<boolean>;
}

/** A delivery to accept, checked, with the text to store made once (`inboxItemJson`). */
export interface AcceptRecord {
  tenant: string;
  bot: string;
  deliveryId: string;
  dedupeKey?: string | undefined;
  /** The stored form of the inbox item (its payload as the queue keeps it). */
  json: string;
}

/** The inbox's queue, and its durable, deduplicating accept (`dedupeKeys`, remembered for the dedupe TTL). */
export interface BackendInbox extends BackendQueue {
  accept(record: AcceptRecord): Promise<AcceptResult>;
}

/** The outbox's queue: FIFO per target, one in flight per target. */
export interface BackendOutbox extends BackendQueue {
  enqueue(input: z.output<typeof EnqueueInputSchema>): Promise<QueueEntry>;
  depth(target: string): Promise<number>;
  setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean>;
}

/** `Claims` with its options filled in. */
export interface BackendClaims {
  claim(key: string, ttlMs: number, options: { lock: boolean }): Promise<boolean>;
  renew(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<boolean>;
}

/** `KvSpace` with its options filled in: `ttlMs` undefined keeps the value until deleted. */
export interface BackendKv {
  get(key: string): Promise<JsonValue | undefined>;
  /** `json`: the value's JSON text. */
  set(key: string, json: string, ttlMs: number | undefined): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Live items whose key starts with `prefix` ('' for all), sorted by key. */
  list(prefix: string): Promise<KvItem[]>;
}

/** What every backend is opened with. */
export interface BackendDeps {
  clock: Clock;
  /** How long a delivery id is remembered (default `DEFAULT_DEDUPE_TTL_MS`). */
  dedupeTtlMs: number;
}
