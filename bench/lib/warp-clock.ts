import { AdjustableClock, type TimerHandle } from '../../src/clock';

/** Where a warped clock starts and how fast it runs; equal parameters give equal clocks in every process. */
export interface WarpParams {
  /** Real time (epoch ms, `Date.now()`) at which the warped clock reads `clockStart`. */
  wallStart: number;
  clockStart: number;
  /** Clock milliseconds per real millisecond. */
  speed: number;
}

/**
 * A clock that runs `speed` times faster than real time, so a benchmark of one-minute rate windows
 * finishes in seconds. Processes given the same `WarpParams` read the same time, so replicas in
 * separate processes share it. It extends `AdjustableClock` because the sandbox takes one; it cannot
 * be set or advanced.
 */
export class WarpClock extends AdjustableClock {
  private readonly timeouts = new Map<number, ReturnType<typeof setTimeout>>();
  private nextTimer = 1;

  constructor(readonly params: WarpParams) {
    super({ start: params.clockStart });
  }

  override now(): number {
    return this.params.clockStart + (Date.now() - this.params.wallStart) * this.params.speed;
  }

  override setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextTimer++;
    const timer = setTimeout(
      () => {
        this.timeouts.delete(id);
        fn();
      },
      Math.max(0, ms) / this.params.speed,
    );
    this.timeouts.set(id, timer);
    return { id };
  }

  override clearTimeout(handle: TimerHandle): void {
    clearTimeout(this.timeouts.get(handle.id));
    this.timeouts.delete(handle.id);
  }

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

  override advance(): void {
    throw new Error('a warped clock only runs; it cannot be advanced');
  }

  override set(): void {
    throw new Error('a warped clock only runs; it cannot be set');
  }
}
