import type { Clock, TimerHandle } from './clock';

export interface WorkerLanesOptions {
  clock: Clock;
  /** How many lanes take work at once. */
  lanes: number;
  /** How long an idle lane waits before it looks again (unless woken). */
  pollMs: number;
  /** Whose work the lanes take: the inbox worker, the outbox sender. */
  worker: LaneWorker;
}

/** What lanes ask of the work they run, by name. */
export interface LaneWorker {
  /** Takes and works off one piece of work; false when there was none. A throw is told to `takeFailed`, and the lane goes on. */
  takeOne(): Promise<boolean>;
  takeFailed(error: unknown): void;
}

/**
 * Lanes that take work until stopped: a lane that found none waits `pollMs` on the clock, or until
 * `wake()` (work was just queued in this process). The loop of the inbox worker and the outbox sender.
 *
 * @example
 * const lanes = new WorkerLanes({ clock, lanes: 4, pollMs: 500, worker: sender });
 * lanes.start(); lanes.wake(); await lanes.stop();
 */
export class WorkerLanes {
  private readonly running: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  private stopping = false;

  constructor(private readonly options: WorkerLanesOptions) {}

  /** Starts the lanes (once; a stopped set of lanes stays stopped). */
  start(): void {
    if (this.running.length > 0 || this.stopping) return;
    for (let i = 0; i < this.options.lanes; i++) this.running.push(this.lane());
  }

  get started(): boolean {
    return this.running.length > 0;
  }

  /** An idle lane looks for work now. */
  wake(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /** No lane takes more work; resolves when what they are doing has finished. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all(this.running);
  }

  private async lane(): Promise<void> {
    while (!this.stopping) {
      let worked = false;
      try {
        worked = await this.options.worker.takeOne();
      } catch (error) {
        this.options.worker.takeFailed(error);
      }
      if (!worked && !this.stopping) await this.idle();
    }
  }

  /** One timer per wait, cleared when woken early, so a frozen test clock collects no stale timers. */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      let handle: TimerHandle | undefined = undefined;
      const done = (): void => {
        if (handle) this.options.clock.clearTimeout(handle);
        this.wakers.delete(done);
        resolve();
      };
      this.wakers.add(done);
      handle = this.options.clock.setTimeout(done, this.options.pollMs);
    });
  }
}
