import type { Claims } from './claims';
import type { Inbox } from './inbox';
import type { KvSpace } from './kv';
import type { ProvisioningState } from './provisioning';
import type { OutboxQueue } from './queue';
import type { SharedRateBudget } from './rate-budget';
import type { Secrets } from './secrets';
import type { StoreTransfer } from './store-transfer';

/**
 * Everything intrabot keeps: one interface, two implementations (`sqlite`, the embedded default, and
 * `redis`, for several replicas) held to one contract suite (test/store/contract.ts).
 *
 * @example
 * const store = await openStore({ kind: 'sqlite', path: '.intrabot/intrabot.db' }, { clock, secretKey });
 * await store.kv('bot:kudos').set('greeting', 'hi');
 * await store.close();
 */
export interface Store {
  /** The backend's name (`sqlite`, `redis`, `postgres`). */
  readonly kind: string;
  readonly inbox: Inbox;
  readonly outbox: OutboxQueue;
  readonly claims: Claims;
  readonly rate: SharedRateBudget;
  readonly secrets: Secrets;
  readonly provisioning: ProvisioningState;
  /** Export and import of everything the store holds (`intrabot store export` / `import`); absent for a backend that cannot. */
  readonly transfer?: StoreTransfer;
  /** A key-value space; namespaces are isolated (`bot:<name>`, `sync:<tenant>`, `cache:...`). */
  kv(namespace: string): KvSpace;
  /** The schema version the store is at (after the migrations run at open). */
  schemaVersion(): Promise<number>;
  /**
   * Resolves when the backend answers a read now, rejects when it does not (`/readyz`): cheap enough for
   * every health probe, bounded in time.
   */
  ping(): Promise<void>;
  /**
   * Tells `listener` when work became due in a queue through another process (a replica accepted a
   * delivery, an operator requeued a dead letter), so the workers need not wait for their next poll;
   * returns the unsubscribe. Best effort (PostgreSQL's LISTEN/NOTIFY): polling still finds everything,
   * and a backend without wake-ups never calls it.
   */
  watch(listener: (queue: 'inbox' | 'outbox') => void): () => void;
  /** Flushes pending work (the SQLite inbox batch) and closes connections. */
  close(): Promise<void>;
}
