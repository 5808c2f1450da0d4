import type { BotContext, JobRun } from 'intrabot';
import { makePairs } from './make-pairs';
import type { PairingConfig } from './pairing-config';
import { HISTORY_KEY, roundKey, ROUND_TTL_MS, toldKey, type MemberRef, type PastRound, type RoundRecord } from './pairing-store';
import { roundPool } from './pool';

type Ctx = BotContext<PairingConfig>;

/**
 * The weekly job: draws the round (once: it is kept before any DM goes), tells each group by direct
 * message whom they meet, and adds the round to the history the next draws avoid. A rerun of the day
 * (a retry, `intrabot run`, a catch-up) tells only those not told yet, the same pairs.
 */
export async function pairJob(ctx: Ctx, run: JobRun): Promise<void> {
  const date = ctx.dateOf(run.slot);
  const before = await ctx.store.get<RoundRecord>(roundKey(date));
  if (before?.state === 'done') return ctx.log.info(`round of ${date} drawn and told already; nothing new to send`, { date });
  const round = before ?? (await draw(ctx, date));
  if (round.groups.length === 0) return ctx.log.info(`round of ${date}: fewer than two people to pair`, { date });
  await tell(ctx, round);
  await remember(ctx, round);
  await ctx.store.set(roundKey(date), { ...round, state: 'done' } satisfies RoundRecord, { ttlMs: ROUND_TTL_MS });
  ctx.progress(`round of ${date}: ${round.groups.length} groups`);
}

/** The round's seed: its date, with the configured seed mixed in. */
export function roundSeed(seed: string, date: string): string {
  return seed ? `${seed}:${date}` : date;
}

async function draw(ctx: Ctx, date: string): Promise<RoundRecord> {
  const pool = await roundPool(ctx);
  const history = (await ctx.store.get<PastRound[]>(HISTORY_KEY)) ?? [];
  const recent = ctx.config.avoid_rounds === 0 ? [] : history.slice(-ctx.config.avoid_rounds).map((r) => r.groups);
  const byId = new Map(pool.map((m) => [m.id, m]));
  const ids = makePairs(
    pool.map((m) => m.id),
    recent,
    roundSeed(ctx.config.seed, date),
  );
  const round: RoundRecord = { date, state: 'drawn', groups: ids.map((group) => group.map((id) => byId.get(id) as MemberRef)) };
  if (round.groups.length > 0) await ctx.store.set(roundKey(date), round, { ttlMs: ROUND_TTL_MS });
  return round;
}

async function tell(ctx: Ctx, round: RoundRecord): Promise<void> {
  for (const group of round.groups) {
    for (const member of group) {
      if (await ctx.store.get(toldKey(round.date, member.id))) continue;
      const others = group.filter((m) => m.id !== member.id);
      await ctx.dm(member.id, { template: 'match', data: { date: round.date, user: member, others, trio: others.length > 1 } });
      // marked once queued: a crash between the two can repeat this one message, never skip it
      await ctx.store.set(toldKey(round.date, member.id), true, { ttlMs: ROUND_TTL_MS });
    }
  }
}

/** Adds the round to the history (replacing one of the same date), keeping what the draws may avoid. */
async function remember(ctx: Ctx, round: RoundRecord): Promise<void> {
  const history = ((await ctx.store.get<PastRound[]>(HISTORY_KEY)) ?? []).filter((r) => r.date !== round.date);
  history.push({ date: round.date, groups: round.groups.map((g) => g.map((m) => m.id)) });
  await ctx.store.set(HISTORY_KEY, history.slice(-Math.max(ctx.config.avoid_rounds, 1)));
}
