import type { BotContext } from 'intrabot';
import type { AcknowledgeConfig } from './acknowledge-config';
import { getRound, openRounds, type Round, saveRound, setOpenRounds } from './rounds';

/** What a round needs of an announcement: from `GET /announcements/{id}` or the `announcement.published` payload. */
export interface TrackedAnnouncement {
  id: number;
  title: string;
  groups: { id: number }[];
  publishedAt: number;
}

/**
 * Starts tracking an announcement: a round whose audience the remind job reads, whose reminders it
 * sends and whose report goes to `authorId`. Resolves with the round that already exists when the
 * announcement is tracked already (`started: false`): it is never tracked twice.
 */
export async function startRound(
  ctx: BotContext<AcknowledgeConfig>,
  announcement: TrackedAnnouncement,
  authorId: number,
): Promise<{ round: Round; started: boolean }> {
  const existing = await getRound(ctx.store, announcement.id);
  if (existing) return { round: existing, started: false };
  const round: Round = {
    id: announcement.id,
    title: announcement.title,
    groups: announcement.groups.map((g) => Number(g.id)),
    authorId,
    publishedAt: announcement.publishedAt,
    startedAt: ctx.now(),
    audience: { pages: 0, group: 0, page: 1, complete: false },
    remindedRound: 0,
    walkRound: 0,
    remindPage: 0,
    closed: false,
  };
  await saveRound(ctx.store, round);
  const open = await openRounds(ctx.store);
  if (!open.includes(round.id)) await setOpenRounds(ctx.store, [...open, round.id]);
  ctx.log.info('tracking confirmations', { announcement: round.id, author: authorId });
  return { round, started: true };
}
