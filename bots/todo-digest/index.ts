import { type BotContext, defineBot, type ReportDelivery, z } from 'intrabot';
import { summarize } from './summarize';

const Config = z.object({
  /** The manifest target the digest is posted to. */
  target: z.string().min(1).default('digest'),
  /** Departments under this completion percentage are listed as behind. */
  behind_below: z.coerce.number().min(0).max(100).default(50),
});

/** Turns the `todoliststats` reports (daily, weekly) into a short per-department post. */
export default defineBot({
  config: Config,
  reports: {
    'todoliststats.daily': async (report, ctx) => postDigest(report, ctx, 'daily'),
    'todoliststats.weekly': async (report, ctx) => postDigest(report, ctx, 'weekly'),
  },
});

async function postDigest(report: ReportDelivery, ctx: BotContext<z.output<typeof Config>>, period: 'daily' | 'weekly'): Promise<void> {
  const summary = summarize(report.payload, ctx.config.behind_below);
  if (summary.total === 0) {
    ctx.log.info(`${period} todo report without tasks: no digest`);
    return;
  }
  const sentAt = new Date(report.timestamp * 1000).toISOString();
  await ctx.post(ctx.config.target, {
    template: 'digest',
    data: { ...summary, sent_at: sentAt, weekly: period === 'weekly', behind_below: ctx.config.behind_below },
  });
}
