import { ApiForbiddenError, ApiValidationError, type BotContext, defineBot, z } from 'intrabot';
import {
  anniversariesOn,
  AnniversaryYearsSchema,
  AwardConfigSchema,
  awardRows,
  type Celebrant,
  CelebrationConfigSchema,
  type CelebrationDay,
  chooseAchievement,
  runCelebration,
} from 'intrabot/helpers';

const ConfigSchema = CelebrationConfigSchema.extend({
  years: AnniversaryYearsSchema.default([1, 5, 10, 15, 20, 25, 30, 35, 40]),
  award: AwardConfigSchema,
  templates: z.object({ post: z.string().min(1).default('anniversary/post'), dm: z.string().min(1).default('anniversary/dm') }).prefault({}),
});
type Config = z.infer<typeof ConfigSchema>;

/**
 * Work anniversaries: each morning, the colleagues hired on today's month-day the configured
 * numbers of years ago, confirmed with the platform, optionally awarded a custom achievement, and
 * greeted in one post and/or by DM.
 */
export default defineBot({
  config: ConfigSchema,
  jobs: {
    greet: async (ctx, run) =>
      runCelebration(ctx, run, {
        kind: 'anniversary',
        select: (users, date, filter, config) =>
          anniversariesOn(users, date, { ...filter, years: config.years }).map(({ person, years }) => ({ user: person, years })),
        beforeGreeting: award,
      }),
  },
});

/** Awards the configured achievement for the day; a wrong configuration is logged and greeting goes on. */
async function award(ctx: BotContext<Config>, celebrants: Celebrant[], day: CelebrationDay): Promise<void> {
  const choice = await chooseAchievement(ctx.api, ctx.config.award, ctx.signal);
  if (!choice) return;
  if (!choice.ok) {
    ctx.log.error(`not awarding: ${choice.reason}`, { award: ctx.config.award });
    return;
  }
  const rows = awardRows(
    celebrants.map((c) => c.user),
    day.date,
    day.groups,
  );
  // spec: Award rules 3: a row equal to an existing award returns it, so a rerun awards nobody twice
  try {
    await ctx.api.achievements.award(choice.achievement.id, rows);
    ctx.log.info('awarded', { achievement_id: choice.achievement.id, users: rows.map((row) => row.user_id) });
  } catch (error) {
    // a refused batch (422: all or nothing) or a disabled feature (403) must not cost the greeting
    if (!(error instanceof ApiValidationError || error instanceof ApiForbiddenError)) throw error;
    ctx.log.error('the platform refused the awards', { achievement_id: choice.achievement.id, code: error.code, message: error.message });
  }
}
