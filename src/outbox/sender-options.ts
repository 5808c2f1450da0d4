import type { Clock } from '../clock';
import type { QueueLease } from '../store/queue';
import type { Store } from '../store/store';
import type { CoalesceOptions } from './coalesce';
import type { OutboxEntry, OutboxRecord } from './entry';
import type { BackoffPolicy } from './retry-plan';
import type { SendClient } from './send-client';
import type { TokenUser } from './send-entry';

/* What an OutboxSender is built from: its store, clock and clients, its tuning, and the hooks it calls. */

/** What an entry created on the platform, told to `onCreated`. */
export interface CreatedByEntry {
  tenant: string;
  kind: 'post' | 'comment';
  id: number;
  /** The outbox entry that created it (the id `Outbox.enqueue` answered). */
  entryId: string;
  tokenUser?: TokenUser;
  /** A post of an alert input's firing message: its bot, the refs of the alerts it reported, its wall, text and group (to edit it later). */
  alert?: { bot: string; refs: string[]; wallId?: number; text: string; group?: string };
}

/**
 * What the sender asks of whoever runs it, one named step each (the runtime's are `RuntimeSendSteps`,
 * src/runtime/sending/send-steps.ts): the client of a tenant; what is filled in just before a send;
 * whether the entry is held instead (its bot is paused); what it tells once a post or comment exists.
 */
export interface SendSteps {
  /** The client of a tenant (an `ApiClient` with the shared limiter); undefined for an unknown tenant. */
  clientFor(tenant: string): SendClient | undefined;
  /**
   * Fills in what an entry left for send time (its bot's user, unknown while provisioning had not
   * finished; a wall known by name only) and answers the entry to send; a throw counts as a failed
   * attempt (retried, or dead-lettered for a refusal).
   */
  resolve?(entry: OutboxEntry): Promise<OutboxEntry>;
  /** Holds an entry instead of sending it (its bot is paused): resolves true when it did. */
  hold?(lease: QueueLease, record: OutboxRecord): Promise<boolean>;
  /** A post or comment an entry created (loop prevention learns it; an alert's post is recorded for its resolution). */
  onCreated?(input: CreatedByEntry): Promise<void> | void;
  onSentText?(input: { tenant: string; text: string }): Promise<void> | void;
}

export interface SenderLogger {
  warn?(details: Record<string, unknown>, message: string): void;
}

export interface OutboxSenderOptions {
  store: Pick<Store, 'outbox' | 'kv' | 'secrets' | 'claims'>;
  clock: Clock;
  /** What the sender asks while it sends: the tenant's client, and the runner's steps around each send. */
  steps: SendSteps;
  /** Concurrent lanes (entries of different targets in flight at once). Default 4. */
  lanes?: number;
  /** How long a taken entry is held before another replica may take it; kept alive while sending. Default 60 s. */
  leaseMs?: number;
  /** How often an idle lane looks for due entries. Default 500 ms. */
  pollMs?: number;
  backoff?: BackoffPolicy;
  /** The least wait before reconciling an uncertain create (the platform may still be working on it). Default 30 s. */
  uncertainDelayMs?: number;
  /** `false` turns coalescing off. */
  coalesce?: Partial<CoalesceOptions> | false;
  /** Messages per minute a target may send (for coalescing). Default 60 (spec: Limits). */
  limitPerMinute?: (target: string) => number;
  logger?: SenderLogger;
  random?: () => number;
}
