/**
 * Time is injected everywhere (STYLE.md rule 5): the runtime, the scheduler, the signature check and
 * the sandbox read `clock.now()` and wait with `clock.sleep()` / `clock.setTimeout()`, never
 * `Date.now()` or the global timers. Advancing an adjustable clock moves "now" and wakes every timer
 * that has become due, so a 30-minute window is testable in milliseconds.
 */
export interface Clock {
  /** Milliseconds since the epoch, on this clock. */
  now(): number;
  /** Calls `fn` once the clock has advanced by `ms` (by real time passing or by an adjustment). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Resolves after `ms` on this clock; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `listener` whenever the clock is set or advanced by hand (`fromMs` -> `toMs`), before any timer
   * that became due runs; returns the function that stops it. A real deployment's clock is never
   * adjusted, so it never calls. Holders of leases use it to renew at once: a jump forward by more than
   * a lease would otherwise let another worker take over work still in progress.
   */
  onJump?(listener: (fromMs: number, toMs: number) => void): () => void;
}

export interface TimerHandle {
  readonly id: number;
}

interface PendingTimer {
  id: number;
  due: number;
  fn: () => void;
  real: ReturnType<typeof setTimeout> | undefined;
}

export interface AdjustableClockOptions {
  /** Where the clock starts (ms since epoch). Default: the real time. */
  start?: number;
  /** A frozen clock moves only when told to (unit tests); otherwise it flows with real time. */
  frozen?: boolean;
  /**
   * Clock milliseconds per real millisecond (default 1). A benchmark of one-minute rate windows runs
   * at 4 to finish in seconds; timers fire at the same speed.
   */
  speed?: number;
  /**
   * The real time (epoch ms) at which the clock reads `start` (default: now). Processes given the same
   * `start`, `wallStart` and `speed` read the same time, so replicas in separate processes share a
   * sped-up clock.
   */
  wallStart?: number;
}

/**
 * A clock that flows with real time plus an offset (or stands still when frozen), and can be set or
 * advanced. The sandbox's `/_sandbox/clock` and the testing helpers drive one of these; a real
 * deployment uses `systemClock`, which is the same class never adjusted.
 */
export class AdjustableClock implements Clock {
  /** The clock read `anchor` at the real time `wallAnchor`; it moves `speed` times as fast as real time. */
  private anchor: number;
  private wallAnchor: number;
  private readonly speed: number;
  private frozenAt: number | undefined;
  private readonly timers = new Map<number, PendingTimer>();
  private readonly jumpListeners = new Set<(fromMs: number, toMs: number) => void>();
  private nextId = 1;

  constructor(options: AdjustableClockOptions = {}) {
    const start = options.start ?? Date.now();
    this.speed = options.speed ?? 1;
    if (!(this.speed > 0) || !Number.isFinite(this.speed)) throw new RangeError(`a clock's speed must be a positive number, got ${this.speed}`);
    this.anchor = start;
    this.wallAnchor = options.wallStart ?? Date.now();
    this.frozenAt = options.frozen ? start : undefined;
  }

  now(): number {
    return this.frozenAt ?? this.anchor + (Date.now() - this.wallAnchor) * this.speed;
  }

  get isFrozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** Move the clock forward by `ms` and run every timer that became due, in due order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs a non-negative number of ms, got ${ms}`);
    this.set(this.now() + ms);
  }

  /**
   * Jump to `epochMs` and run every timer that is now due. Forwards, timers whose wait is covered fire
   * (a cron slot, a conversation's timeout); backwards, each timer keeps the wait it had left, since a
   * timer waits for the clock to advance by its `ms`: a 60 s pause started before the clock was moved
   * back a week still ends 60 s later, not a week later.
   */
  set(epochMs: number): void {
    const from = this.now();
    if (epochMs < from) for (const timer of this.timers.values()) timer.due -= from - epochMs;
    if (this.frozenAt !== undefined) this.frozenAt = epochMs;
    else {
      this.anchor = epochMs;
      this.wallAnchor = Date.now();
    }
    for (const listener of [...this.jumpListeners]) listener(from, epochMs);
    this.reschedule();
  }

  onJump(listener: (fromMs: number, toMs: number) => void): () => void {
    this.jumpListeners.add(listener);
    return () => {
      this.jumpListeners.delete(listener);
    };
  }

  /**
   * Stops a flowing clock where it reads now; timers wait until it is advanced or resumed. A test that
   * must show some work needs no wait on this clock freezes it around that work.
   */
  freeze(): void {
    if (this.frozenAt !== undefined) return;
    this.frozenAt = this.now();
    this.reschedule();
  }

  /** Lets a frozen clock flow with real time again, from where it stands. */
  resume(): void {
    if (this.frozenAt === undefined) return;
    this.anchor = this.frozenAt;
    this.wallAnchor = Date.now();
    this.frozenAt = undefined;
    this.reschedule();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const timer: PendingTimer = { id, due: this.now() + Math.max(0, ms), fn, real: undefined };
    this.timers.set(id, timer);
    this.arm(timer);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const timer = this.timers.get(handle.id);
    if (!timer) return;
    if (timer.real) clearTimeout(timer.real);
    this.timers.delete(handle.id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        this.clearTimeout(handle);
        reject(signal?.reason);
      };
      const handle = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Number of timers waiting; useful to let a test know work is scheduled. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  private arm(timer: PendingTimer): void {
    if (timer.real) clearTimeout(timer.real);
    timer.real = undefined;
    const wait = timer.due - this.now();
    if (wait <= 0) {
      // due already: run on the next macrotask so callers never see re-entrancy
      timer.real = setTimeout(() => this.fire(timer.id), 0);
    } else if (this.frozenAt === undefined) {
      // Node caps timers at 2^31-1 ms; a longer wait is re-armed when that fires
      timer.real = setTimeout(() => this.fire(timer.id), Math.min(Math.ceil(wait / this.speed), 2_147_483_647));
    }
  }

  private fire(id: number): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    if (timer.due > this.now()) return this.arm(timer);
    this.timers.delete(id);
    timer.fn();
  }

  private reschedule(): void {
    const ordered = [...this.timers.values()].sort((a, b) => a.due - b.due);
    for (const timer of ordered) this.arm(timer);
  }
}

/** The real clock of a deployment. */
export function createSystemClock(): AdjustableClock {
  return new AdjustableClock();
}
