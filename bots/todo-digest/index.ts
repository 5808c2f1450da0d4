import { defineBot, z } from '../../src';
import { summarize } from './summarize';

/** Turns the daily `todoliststats` report into a short per-department post. */
export default defineBot({
  config: z.object({
    /** The manifest target the digest is posted to. */
    target: z.string().min(1).default('digest'),
    /** Departments under this completion percentage are listed as behind. */
    behind_below: z.coerce.number().min(0).max(100).default(50),
  }),
  reports: {
    'todoliststats.daily': async (report, ctx) => {
      const summary = summarize(report.payload, ctx.config.behind_below);
      if (summary.total === 0) {
        ctx.log.info('todo report without tasks: no digest');
        return;
      }
      const sentAt = new Date(report.timestamp * 1000).toISOString();
      await ctx.post(ctx.config.target, { template: 'digest', data: { ...summary, sent_at: sentAt, behind_below: ctx.config.behind_below } });
    },
  },
});
