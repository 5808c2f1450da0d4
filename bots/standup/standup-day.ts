/** A member as the day's record keeps them. */
export interface MemberRef {
  id: number;
  name: string;
}

/**
 * The day's stand-up, kept in the store from the ask on: who was asked, who was away, until when
 * answers are taken. `running` while the ask job sends, `open` once it is done, `failed` when it
 * stopped half way (a rerun goes on where it stopped).
 */
export interface StandupDay {
  date: string;
  state: 'running' | 'open' | 'failed';
  /** ms since the epoch: the end of the answers, the summary's time. */
  deadline: number;
  asked: MemberRef[];
  away: MemberRef[];
}

/** One member's check-in of the day, saved after each answer, so a half-finished one still shows. */
export interface CheckIn {
  user: MemberRef;
  yesterday?: string;
  today?: string;
  blockers?: string;
}

const DAY_MS = 86_400_000;
/** Long enough to look back on a week; short enough that records do not pile up. */
export const RECORD_TTL_MS = 8 * DAY_MS;
/** Longer than the ask or summary may run, so a crashed run's claim lapses. */
export const RUNNING_TTL_MS = 15 * 60_000;

export const dayKey = (date: string) => `day:${date}`;
export const threadKey = (date: string) => `thread:${date}`;
export const askedKey = (date: string, userId: number) => `asked:${date}:${userId}`;
export const checkInKey = (date: string, userId: number) => `checkin:${date}:${userId}`;
export const summaryKey = (date: string) => `summary:${date}`;
