import type { BotContext, JobRun } from 'intrabot';
import type { StandupConfig } from './standup-config';
import { checkInKey, dayKey, RECORD_TTL_MS, RUNNING_TTL_MS, summaryKey, type CheckIn, type MemberRef, type StandupDay } from './standup-day';

type Ctx = BotContext<StandupConfig>;

/** What the summary template receives. */
export interface SummaryData {
  date: string;
  checkIns: { name: string; yesterday: string; today: string; blockers: string; complete: boolean }[];
  missing: MemberRef[];
  away: MemberRef[];
  blocked: MemberRef[];
}

const NOT_SAID = '(no answer)';
const NO_BLOCKERS = /^(none|no|nope|nothing|n\/a|-)\.?$/i;

/**
 * The deadline job: one post on the team wall with each check-in, who is blocked, who did not
 * answer and who was away. Once a day: a marker claims the day before the post is queued.
 */
export async function summaryJob(ctx: Ctx, run: JobRun): Promise<void> {
  const date = ctx.dateOf(run.slot);
  const day = await ctx.store.get<StandupDay>(dayKey(date));
  if (!day) return ctx.log.info(`no stand-up was asked on ${date}: no summary`, { date });
  const marker = await ctx.store.get<{ state: string }>(summaryKey(date));
  if (marker) return ctx.log.info(`summary for ${date} ${marker.state === 'running' ? 'is being posted by another run' : 'posted already'}`, { date });
  await ctx.store.set(summaryKey(date), { state: 'running' }, { ttlMs: RUNNING_TTL_MS });
  try {
    const checkIns = await Promise.all(day.asked.map((m) => ctx.store.get<CheckIn>(checkInKey(date, m.id))));
    await ctx.post(ctx.config.target, { template: 'summary', data: { ...summarize(day, checkIns) } });
  } catch (err) {
    await ctx.store.delete(summaryKey(date));
    throw err;
  }
  await ctx.store.set(summaryKey(date), { state: 'done' }, { ttlMs: RECORD_TTL_MS });
}

/** The summary of a day from its record and the check-ins of those asked (in the same order). */
export function summarize(day: StandupDay, checkIns: readonly (CheckIn | undefined)[]): SummaryData {
  const given = day.asked.flatMap((member, i) => {
    const c = checkIns[i];
    return c && (c.yesterday ?? c.today ?? c.blockers) !== undefined ? [{ member, c }] : [];
  });
  const answered = new Set(given.map((g) => g.member.id));
  return {
    date: day.date,
    checkIns: given.map(({ member, c }) => ({
      name: member.name,
      yesterday: c.yesterday ?? NOT_SAID,
      today: c.today ?? NOT_SAID,
      blockers: c.blockers === undefined ? NOT_SAID : NO_BLOCKERS.test(c.blockers) ? 'none' : c.blockers,
      complete: c.blockers !== undefined,
    })),
    missing: day.asked.filter((m) => !answered.has(m.id)),
    away: day.away,
    blocked: given.filter(({ c }) => c.blockers !== undefined && !NO_BLOCKERS.test(c.blockers)).map(({ member }) => member),
  };
}
