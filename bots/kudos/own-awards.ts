import type { BotStore } from 'intrabot';

/**
 * The awards `/kudos` made itself, so that their `achievement.awarded` event does not produce a
 * second congratulation: the command posts its own, with the reason. A short-lived marker per user
 * and achievement covers the moment between the award request and its answer (the event may
 * arrive first); the award id is kept past the platform's last webhook retry (spec: Outgoing
 * webhooks, retries after 1 and 10 minutes).
 */
const PENDING_TTL_MS = 10 * 60_000;
const AWARD_TTL_MS = 24 * 60 * 60_000;

const pendingKey = (achievementId: number, userId: number): string => `own-pending:${achievementId}:${userId}`;
const awardKey = (awardId: number): string => `own-award:${awardId}`;

export async function markPendingAward(store: BotStore, achievementId: number, userId: number): Promise<void> {
  await store.set(pendingKey(achievementId, userId), true, { ttlMs: PENDING_TTL_MS });
}

export async function markOwnAward(store: BotStore, awardId: number): Promise<void> {
  await store.set(awardKey(awardId), true, { ttlMs: AWARD_TTL_MS });
}

/** Whether an awarded event is for an award `/kudos` made (or is making). */
export async function isOwnAward(store: BotStore, award: { id: number; achievementId: number; userId: number }): Promise<boolean> {
  if (await store.get(awardKey(award.id))) return true;
  return (await store.get(pendingKey(award.achievementId, award.userId))) !== undefined;
}
