import type { Clock, TimerHandle } from '../clock';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import type { DeploymentTable } from './deployments';
import { HEARTBEAT_MS, heartbeat, pollMissed, recoverMissed } from './ingest/recovery';
import type { SecretRotations } from './rotation/secret-rotations';

export interface BackgroundDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  table: DeploymentTable;
  /** A recovered or polled event entered the inbox (or another process said so): wake its worker. */
  wake: () => void;
  /** Another process said the outbox has work due: wake the sender. */
  wakeSender?: (() => void) | undefined;
  /** `intrabot dev --poll`: list new posts and comments this often instead of receiving deliveries. */
  poll?: { intervalMs: number } | undefined;
  /** Secret rotations to carry on (begun here or by another replica, before a restart too). */
  rotations?: SecretRotations | undefined;
}

/**
 * What a running runtime does on its own besides the workers: recovery of events missed during a long
 * downtime (once, at start, beside the workers: it lists walls under the rate limit), a heartbeat every
 * minute (what the next start's recovery measures the gap from), unfinished secret rotations, and
 * polling in `dev --poll`.
 */
export class BackgroundWork {
  private recovery: Promise<unknown> = Promise.resolve();
  private beatTimer: TimerHandle | undefined;
  private pollTimer: TimerHandle | undefined;
  private running = false;
  private unwatch: (() => void) | undefined;

  constructor(private readonly deps: BackgroundDeps) {}

  start(): void {
    this.running = true;
    const { store, clock, logger, table, wake } = this.deps;
    this.recovery = recoverMissed({ store, clock, logger, table, onRecovered: wake }).catch((err: unknown) => {
      logger.warn({ err }, 'recovery of missed events failed');
      return [];
    });
    // wake-ups from other replicas (PostgreSQL's NOTIFY), where the store has them: work due elsewhere is
    // taken at once rather than at the next poll
    this.unwatch = store.watch((queue) => (queue === 'inbox' ? wake() : this.deps.wakeSender?.()));
    this.beat();
    this.deps.rotations?.start();
    if (this.deps.poll) this.pollEvery(this.deps.poll.intervalMs, clock.now());
  }

  /** Stops the timers and waits for recovery to finish; `lastBeat` notes the runtime alive one last time. */
  async stop(options: { lastBeat: boolean }): Promise<void> {
    this.running = false;
    this.unwatch?.();
    if (this.beatTimer) this.deps.clock.clearTimeout(this.beatTimer);
    if (this.pollTimer) this.deps.clock.clearTimeout(this.pollTimer);
    await this.deps.rotations?.stop();
    await this.recovery;
    if (options.lastBeat) await this.beatAll().catch(() => undefined);
  }

  private beat(): void {
    this.beatTimer = this.deps.clock.setTimeout(() => {
      void this.beatAll().catch((err: unknown) => this.deps.logger.warn({ err }, 'heartbeat failed'));
      this.beat();
    }, HEARTBEAT_MS);
  }

  private async beatAll(): Promise<void> {
    await Promise.all(this.deps.table.tenants().map((t) => heartbeat(this.deps.store, this.deps.clock, t.config.id)));
  }

  /** One polling round after another, each looking back past the last with a minute's overlap (platform times have whole seconds; dedupe drops what was seen). */
  private pollEvery(intervalMs: number, from: number): void {
    if (!this.running) return;
    const { store, clock, logger, table, wake } = this.deps;
    this.pollTimer = clock.setTimeout(() => {
      const next = clock.now();
      pollMissed({ store, clock, logger, table, onRecovered: wake }, from - 60_000)
        .catch((err: unknown) => logger.warn({ err }, 'polling the platform failed'))
        .finally(() => this.pollEvery(intervalMs, next));
    }, intervalMs);
  }
}
