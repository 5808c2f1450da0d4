import type { BotContext, JobRun } from 'intrabot';
import { groupMembers } from './members';
import type { StandupConfig } from './standup-config';
import { askedKey, dayKey, RECORD_TTL_MS, RUNNING_TTL_MS, threadKey, type MemberRef, type StandupDay } from './standup-day';
import { clockTime, isAway, isWorkingDay } from './working-day';

type Ctx = BotContext<StandupConfig>;

/**
 * The morning job: on a working day, the day's post on the team wall, then a direct message to each
 * member who is not away, inviting them to check in under that post. Each send is marked in the
 * store as it is queued, so a rerun of the day (a retry, `intrabot run`, a catch-up) sends only what
 * is still missing.
 */
export async function askJob(ctx: Ctx, run: JobRun): Promise<void> {
  // the slot's day: a run caught up after midnight is still the stand-up it was for
  const date = ctx.dateOf(run.slot);
  if (!isWorkingDay(date, ctx.config)) return ctx.log.info(`no stand-up on ${date}: not a working day`, { date });
  const before = await ctx.store.get<StandupDay>(dayKey(date));
  if (before?.state === 'open') return ctx.log.info(`stand-up for ${date} asked already; nothing new to send`, { date });
  if (before?.state === 'running') return ctx.log.info(`another run is asking for ${date}; leaving it to finish`, { date });
  const day = await openDay(ctx, date, run.slot + ctx.config.answer_within);
  try {
    await postThread(ctx, day);
    await inviteMembers(ctx, day);
  } catch (err) {
    await ctx.store.set(dayKey(date), { ...day, state: 'failed' } satisfies StandupDay, { ttlMs: RECORD_TTL_MS });
    throw err;
  }
  await ctx.store.set(dayKey(date), { ...day, state: 'open' } satisfies StandupDay, { ttlMs: RECORD_TTL_MS });
  ctx.log.info(`stand-up for ${date}: asked ${day.asked.length}, away ${day.away.length}`, { date });
}

/** Reads the group and records who is asked and who is away, claiming the day for this run. */
async function openDay(ctx: Ctx, date: string, deadline: number): Promise<StandupDay> {
  const members = await groupMembers(ctx);
  const ref = ({ id, name }: MemberRef): MemberRef => ({ id, name });
  const day: StandupDay = {
    date,
    state: 'running',
    deadline,
    asked: members.filter((m) => !isAway(m, date, ctx.config.absences)).map(ref),
    away: members.filter((m) => isAway(m, date, ctx.config.absences)).map(ref),
  };
  await ctx.store.set(dayKey(date), day, { ttlMs: RUNNING_TTL_MS });
  return day;
}

async function postThread(ctx: Ctx, day: StandupDay): Promise<void> {
  if (await ctx.store.get(threadKey(day.date))) return;
  await ctx.post(ctx.config.target, { template: 'thread', data: { date: day.date, until: clockTime(day.deadline, ctx.tenant.timezone) } });
  await ctx.store.set(threadKey(day.date), true, { ttlMs: RECORD_TTL_MS });
}

async function inviteMembers(ctx: Ctx, day: StandupDay): Promise<void> {
  for (const member of day.asked) {
    if (await ctx.store.get(askedKey(day.date, member.id))) continue;
    await ctx.dm(member.id, { template: 'invite', data: { date: day.date, until: clockTime(day.deadline, ctx.tenant.timezone), user: member } });
    // marked once queued: a crash between the two can repeat this one message, never skip it
    await ctx.store.set(askedKey(day.date, member.id), true, { ttlMs: RECORD_TTL_MS });
  }
}
