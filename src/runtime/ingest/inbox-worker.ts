import { IntrabotError } from '../../errors';
import type { Logger } from '../../log';
import type { Clock } from '../../clock';
import { WorkerLanes, type LaneWorker } from '../../clock/worker-lanes';
import { renewOnJump } from '../../clock/keep-alive';
import type { Inbox, InboxEntry, InboxItem } from '../../store/inbox';
import type { QueueLease } from '../../store/queue';

export type InboxLease = QueueLease<InboxEntry>;

export interface InboxWorkerOptions {
  inbox: Inbox;
  clock: Clock;
  /** Runs the bot's handlers for one delivery; a throw is a failure of that delivery alone. */
  handle(item: InboxItem): Promise<unknown>;
  /** Holds a delivery instead of handling it (its bot is paused): resolves true when it did. */
  hold?(lease: InboxLease): Promise<boolean>;
  /** Told as a delivery's handling starts, before `handle` (the delivery lag is measured here). */
  starting?(lease: InboxLease): void;
  logger: Logger;
  /** Longer than a handler's time limit: a crashed process's entries come back after it. */
  leaseMs?: number;
  /** Attempts before a delivery goes to the dead letters (`intrabot deliveries` can replay it). */
  maxAttempts?: number;
  /** Waits before the 2nd, 3rd... attempts. */
  backoffMs?: readonly number[];
  concurrency?: number;
  /** How often an idle worker looks for entries whose lease ran out. */
  pollMs?: number;
}

/**
 * Works off the durable inbox: what was accepted and not yet handled when a process stopped is
 * handled after restart (the lease runs out and the entry comes back). A failing delivery is retried
 * with backoff, then dead-lettered with its error; it never blocks the others.
 */
export class InboxWorker implements LaneWorker {
  private readonly o: Required<Omit<InboxWorkerOptions, 'inbox' | 'clock' | 'handle' | 'hold' | 'starting' | 'logger'>>;
  private readonly lanes: WorkerLanes;

  constructor(private readonly options: InboxWorkerOptions) {
    this.o = {
      leaseMs: options.leaseMs ?? 60_000,
      maxAttempts: options.maxAttempts ?? 3,
      backoffMs: options.backoffMs ?? [5_000, 60_000],
      concurrency: options.concurrency ?? 4,
      pollMs: options.pollMs ?? 1_000,
    };
    this.lanes = new WorkerLanes({
      clock: options.clock,
      lanes: this.o.concurrency,
      pollMs: this.o.pollMs,
      worker: this,
    });
  }

  start(): void {
    this.lanes.start();
  }

  /** A delivery was accepted: an idle lane takes it at once. */
  wake(): void {
    this.lanes.wake();
  }

  /** Finishes what is running; what is not taken stays in the inbox for the next start. */
  async stop(): Promise<void> {
    await this.lanes.stop();
  }

  /** One lane's take failed (the store's reserve): logged, and the lane goes on. */
  takeFailed(error: unknown): void {
    this.options.logger.error({ err: error }, 'inbox: reserve failed');
  }

  /** One lane's take (`LaneWorker`): a delivery taken and handled; false when none was due. */
  async takeOne(): Promise<boolean> {
    const lease = await this.options.inbox.reserve(this.o.leaseMs);
    if (!lease) return false;
    // held: put off until its bot is resumed, so the lane goes on to the next delivery at once
    if (await this.options.hold?.(lease)) return true;
    this.options.starting?.(lease);
    const item = lease.payload;
    const log = this.options.logger.child({ delivery: item.deliveryId, bot: item.bot, tenant: item.tenant });
    // a handler outlives its lease only when the clock is moved forward by hand: renewed then
    const stopRenewing = renewOnJump(
      this.options.clock,
      () => this.options.inbox.extend(lease, this.o.leaseMs),
      (err) => log.warn({ err }, 'inbox: could not renew a lease after the clock moved'),
    );
    try {
      const outcome = await this.options.handle(item);
      await this.options.inbox.complete(lease);
      log.debug({ outcome }, 'delivery handled');
    } catch (error) {
      // the store failing too must not end the lane: the lease runs out and the delivery comes back
      await this.recordFailure(lease, log, error).catch((err: unknown) => log.error({ err }, 'inbox: could not record a failed delivery'));
    } finally {
      stopRenewing();
    }
    return true;
  }

  private async recordFailure(lease: InboxLease, log: Logger, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (lease.attempts >= this.o.maxAttempts || isFinal(error)) {
      log.error({ err: error, attempts: lease.attempts }, 'delivery failed for good: moved to the dead letters');
      await this.options.inbox.deadLetter(lease, message);
    } else {
      const wait = this.o.backoffMs[lease.attempts - 1] ?? this.o.backoffMs.at(-1) ?? 60_000;
      log.warn({ err: error, attempts: lease.attempts, retryInMs: wait }, 'delivery failed: will retry');
      await this.options.inbox.retry(lease, this.options.clock.now() + wait, message);
    }
  }
}

/** A failure no retry can mend: a payload without the fields its event promises is the same payload next time. */
function isFinal(error: unknown): boolean {
  return error instanceof IntrabotError && error.code === 'invalid_payload';
}
