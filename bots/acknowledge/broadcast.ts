import { ApiNotFoundError, type BotContext, type CommandInvocation } from 'intrabot';
import type { AcknowledgeConfig } from './acknowledge-config';
import { sendReport } from './report';
import { getRound } from './rounds';
import { startRound } from './start-round';

export const USAGE =
  'Usage: /broadcast <announcement id> tracks a confirmable announcement (reminders, then a report to you); /broadcast report <announcement id> sends its report now. ' +
  'Confirmable announcements are made in the admin interface: the API cannot ask for confirmation.';

/** `/broadcast <id>` and `/broadcast report <id>`. */
export async function broadcast(cmd: CommandInvocation, ctx: BotContext<AcknowledgeConfig>): Promise<void> {
  const [first, second] = cmd.args;
  if (first === 'report' && second !== undefined && /^\d+$/.test(second)) return report(Number(second), cmd, ctx);
  if (first === undefined || !/^\d+$/.test(first) || second !== undefined) return void (await ctx.reply(USAGE));
  await track(Number(first), cmd, ctx);
}

async function track(id: number, cmd: CommandInvocation, ctx: BotContext<AcknowledgeConfig>): Promise<void> {
  let announcement;
  try {
    announcement = await ctx.api.announcements.get(id);
  } catch (error) {
    if (error instanceof ApiNotFoundError) return void (await ctx.reply(`There is no announcement ${id}.`));
    throw error;
  }
  // spec: Announcement, is_confirmable; only confirmable ones have confirmations to track
  if (!announcement.is_confirmable) {
    return void (await ctx.reply(`"${announcement.title}" (${id}) does not ask for confirmation; make it confirmable in the admin interface first.`));
  }
  if (!announcement.is_published || !announcement.published_at) return void (await ctx.reply(`"${announcement.title}" (${id}) is not published yet.`));
  const { round, started } = await startRound(
    ctx,
    { id, title: announcement.title, groups: announcement.groups.map((g) => ({ id: Number(g.id) })), publishedAt: Date.parse(announcement.published_at) },
    cmd.user.id,
  );
  if (!started) return void (await ctx.reply(`"${round.title}" (${id}) is tracked already; /broadcast report ${id} sends its report.`));
  await ctx.reply({ template: ctx.config.templates.tracking, data: trackingData(ctx.config, round) });
}

async function report(id: number, cmd: CommandInvocation, ctx: BotContext<AcknowledgeConfig>): Promise<void> {
  const round = await getRound(ctx.store, id);
  if (!round) return void (await ctx.reply(`Announcement ${id} is not tracked; /broadcast ${id} tracks it.`));
  if (!round.audience.complete) return void (await ctx.reply(`The audience of "${round.title}" is still being read; try again in a while.`));
  await sendReport(ctx, round, { final: false, to: cmd.user.id });
  await ctx.reply(`The report on "${round.title}" is on its way to you by direct message.`);
}

/** What the tracking template gets. */
export function trackingData(config: AcknowledgeConfig, round: { id: number; title: string; publishedAt: number }): Record<string, unknown> {
  return {
    announcement: { id: round.id, title: round.title },
    max_reminders: config.max_reminders,
    remind_after: humanDuration(config.remind_after),
    close_at: new Date(round.publishedAt + config.close_after).toISOString(),
  };
}

/** `86400000` → `1 day`, `7200000` → `2 hours`, `1800000` → `30 minutes`. */
export function humanDuration(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms % 86_400_000 === 0) return unit(ms / 86_400_000, 'day');
  if (ms % 3_600_000 === 0) return unit(ms / 3_600_000, 'hour');
  return unit(Math.round(ms / 60_000), 'minute');
}
