/** A person as the bot keeps them. */
export interface MemberRef {
  id: number;
  name: string;
}

/** A drawn round: kept before any DM goes, so a rerun of the day tells the same pairs. */
export interface RoundRecord {
  date: string;
  state: 'drawn' | 'done';
  groups: MemberRef[][];
}

/** A past round's groups, as ids: what the next draws avoid. */
export interface PastRound {
  date: string;
  groups: number[][];
}

const DAY_MS = 86_400_000;
/** A round's record and DM marks outlive any rerun of its day. */
export const ROUND_TTL_MS = 14 * DAY_MS;

/** Who wrote `/pairing join` (kept with their names: an opt-in outside the group is not in its listing). */
export const JOINED_KEY = 'joined';
/** Group members who wrote `/pairing leave`. */
export const LEFT_KEY = 'left';
/** The last rounds, oldest first. */
export const HISTORY_KEY = 'history';
export const roundKey = (date: string) => `round:${date}`;
export const toldKey = (date: string, userId: number) => `told:${date}:${userId}`;
