export { AdjustableClock, createSystemClock } from './clock';
export type { Clock, TimerHandle, AdjustableClockOptions } from './clock';
export { localDate } from './local-date';
