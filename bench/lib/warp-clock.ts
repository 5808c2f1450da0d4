import { AdjustableClock } from '../../src/clock';

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
 * separate processes share it.
 */
export function warpClock(params: WarpParams): AdjustableClock {
  return new AdjustableClock({ start: params.clockStart, wallStart: params.wallStart, speed: params.speed });
}
