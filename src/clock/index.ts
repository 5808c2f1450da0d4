export { AdjustableClock, createSystemClock } from './clock';
export type { Clock, TimerHandle, AdjustableClockOptions } from './clock';
export { localDate } from './local-date';
export { TimeLimitError, withTimeLimit } from './time-limit';
export type { TimeLimitOptions } from './time-limit';
export { keepAlive } from './keep-alive';
export { WorkerLanes } from './worker-lanes';
export type { WorkerLanesOptions } from './worker-lanes';
