import { type BotContext, type CommandInvocation, defineStep, freeText } from 'intrabot';
import type { StandupConfig } from './standup-config';
import { checkInKey, dayKey, RECORD_TTL_MS, summaryKey, type CheckIn, type MemberRef, type StandupDay } from './standup-day';

/** What the steps carry on: the day and who is checking in. */
export interface CheckInState {
  date: string;
  user: MemberRef;
}

type Ctx = BotContext<StandupConfig>;
const ANSWER = freeText({ max: 1000 });

/** The three questions, in order: each answer is saved, then the next one is asked. */
export const QUESTIONS = {
  yesterday: 'What did you do yesterday?',
  today: 'What will you do today?',
  blockers: 'Anything blocking you? ("none" is an answer)',
} as const;

/**
 * `/standup`, written under the day's stand-up post (or as a post on the wall): asks the three
 * questions there, one at a time. Only members asked today can check in, and only until the summary.
 */
export async function startCheckIn(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const date = ctx.today();
  const day = await ctx.store.get<StandupDay>(dayKey(date));
  if (!day) return ctx.reply('There is no stand-up today.');
  if (await ctx.store.get(summaryKey(date))) return ctx.reply("Today's stand-up summary is posted already; see you at the next one.");
  const user = day.asked.find((m) => m.id === cmd.user.id);
  if (!user) return ctx.reply(`${cmd.user.name}, you are not on today's stand-up list.`);
  return askNext(ctx, 'yesterday', { date, user }, day.deadline);
}

async function askNext(ctx: Ctx, step: keyof typeof QUESTIONS, state: CheckInState, deadline: number): Promise<unknown> {
  // the question waits until the summary, so an answer after it is not taken
  const timeout = Math.max(60_000, deadline - ctx.now());
  return ctx.ask({ prompt: `${state.user.name}: ${QUESTIONS[step]}`, step, state, timeout });
}

async function save(ctx: Ctx, state: CheckInState, answer: Partial<CheckIn>): Promise<StandupDay | undefined> {
  const key = checkInKey(state.date, state.user.id);
  const before = (await ctx.store.get<CheckIn>(key)) ?? { user: state.user };
  await ctx.store.set(key, { ...before, ...answer } satisfies CheckIn, { ttlMs: RECORD_TTL_MS });
  return ctx.store.get<StandupDay>(dayKey(state.date));
}

export const yesterday = defineStep({
  answer: ANSWER,
  run: async (text, state: CheckInState, ctx: Ctx) => {
    const day = await save(ctx, state, { yesterday: text });
    return askNext(ctx, 'today', state, day?.deadline ?? ctx.now());
  },
});

export const today = defineStep({
  answer: ANSWER,
  run: async (text, state: CheckInState, ctx: Ctx) => {
    const day = await save(ctx, state, { today: text });
    return askNext(ctx, 'blockers', state, day?.deadline ?? ctx.now());
  },
});

export const blockers = defineStep({
  answer: ANSWER,
  run: async (text, state: CheckInState, ctx: Ctx) => {
    await save(ctx, state, { blockers: text });
    const late = await ctx.store.get(summaryKey(state.date));
    return ctx.reply(
      late
        ? `Thanks, ${state.user.name}. Today's summary was posted already, so this is not in it.`
        : `Thanks, ${state.user.name}! You are in today's summary.`,
    );
  },
});
