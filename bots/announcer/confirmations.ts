import type { BotStore } from 'intrabot';

/**
 * What the bot remembers per announcement and employee: that they confirmed (from
 * `announcement.confirmed`, which may arrive before the confirmations list shows it) and that
 * they were reminded (once each, never twice). Kept past the reminder window.
 */
export const MARKER_TTL_MS = 60 * 86_400_000;

const confirmedKey = (announcementId: number, userId: number): string => `confirmed:${announcementId}:${userId}`;
const remindedKey = (announcementId: number, userId: number): string => `reminded:${announcementId}:${userId}`;

export async function markConfirmed(store: BotStore, announcementId: number, userId: number): Promise<void> {
  await store.set(confirmedKey(announcementId, userId), true, { ttlMs: MARKER_TTL_MS });
}

export async function hasConfirmed(store: BotStore, announcementId: number, userId: number): Promise<boolean> {
  return (await store.get(confirmedKey(announcementId, userId))) !== undefined;
}

export async function markReminded(store: BotStore, announcementId: number, userId: number): Promise<void> {
  await store.set(remindedKey(announcementId, userId), true, { ttlMs: MARKER_TTL_MS });
}

export async function wasReminded(store: BotStore, announcementId: number, userId: number): Promise<boolean> {
  return (await store.get(remindedKey(announcementId, userId))) !== undefined;
}
