import type { BotStore } from 'intrabot';

/** What the bot keeps is kept this long past its last write: well past any round's close_after. */
export const KEEP_MS = 90 * 86_400_000;

/** One employee of an announcement's audience, as the round's snapshot keeps them. */
export interface Recipient {
  id: number;
  name: string;
  first_name: string;
  email: string;
}

/**
 * A tracked announcement: its audience (a snapshot, read page by page from the directory), how far
 * the reminders have got, and who gets the report. Every cursor is saved after each page, so a run
 * that stops (time limit, restart, end of working hours, `per_run`) carries on where it stopped.
 */
export interface Round {
  id: number;
  title: string;
  /** The announcement's groups; empty: company-wide. */
  groups: number[];
  /** Who gets the report: who ran `/broadcast`, or the announcement's author. */
  authorId: number;
  publishedAt: number;
  startedAt: number;
  audience: {
    /** Pages of the snapshot saved so far (`audience:<id>:<n>`). */
    pages: number;
    /** Where reading the directory goes on: the index into `groups` (or 0 company-wide) and the page. */
    group: number;
    page: number;
    complete: boolean;
  };
  /** The last reminder round walked to the end (0: none yet). */
  remindedRound: number;
  /** The reminder round being walked (0: none yet), and the snapshot page it carries on from. */
  walkRound: number;
  remindPage: number;
  closed: boolean;
}

/** An employee's reminders for one announcement: how many, and the round of the last one. */
export interface Reminded {
  count: number;
  round: number;
}

const roundKey = (id: number) => `round:${id}`;
const INDEX_KEY = 'rounds';
const pageKey = (id: number, page: number) => `audience:${id}:${page}`;
const confirmedKey = (id: number, userId: number) => `confirmed:${id}:${userId}`;
const remindedKey = (id: number, userId: number) => `reminded:${id}:${userId}`;

export const getRound = (store: BotStore, id: number) => store.get<Round>(roundKey(id));
export const saveRound = (store: BotStore, round: Round) => store.set(roundKey(round.id), round, { ttlMs: KEEP_MS });

/** The ids of the rounds still open. Written only by a command or handler that starts one, and by the remind job that closes one. */
export async function openRounds(store: BotStore): Promise<number[]> {
  return (await store.get<number[]>(INDEX_KEY)) ?? [];
}

export async function setOpenRounds(store: BotStore, ids: number[]): Promise<void> {
  await store.set(INDEX_KEY, ids, { ttlMs: KEEP_MS });
}

export const getPage = async (store: BotStore, id: number, page: number) => (await store.get<Recipient[]>(pageKey(id, page))) ?? [];
export const savePage = (store: BotStore, id: number, page: number, recipients: Recipient[]) => store.set(pageKey(id, page), recipients, { ttlMs: KEEP_MS });

/** From `announcement.confirmed` or the confirmations list: when they confirmed (ISO 8601). */
export const markConfirmed = (store: BotStore, id: number, userId: number, at: string) => store.set(confirmedKey(id, userId), at, { ttlMs: KEEP_MS });
export const confirmedAt = (store: BotStore, id: number, userId: number) => store.get<string>(confirmedKey(id, userId));

export const getReminded = async (store: BotStore, id: number, userId: number): Promise<Reminded> =>
  (await store.get<Reminded>(remindedKey(id, userId))) ?? { count: 0, round: 0 };
export const setReminded = (store: BotStore, id: number, userId: number, reminded: Reminded) =>
  store.set(remindedKey(id, userId), reminded, { ttlMs: KEEP_MS });
