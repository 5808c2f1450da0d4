import { defineBot, z } from 'intrabot';
import { birthdaysOn, CelebrationConfigSchema, runCelebration } from 'intrabot/helpers';

const ConfigSchema = CelebrationConfigSchema.extend({
  templates: z.object({ post: z.string().min(1).default('birthday/post'), dm: z.string().min(1).default('birthday/dm') }).prefault({}),
});

/**
 * Birthdays: each morning, the colleagues born on today's month-day (February 29 on Feb 28 or
 * Mar 1 in common years), confirmed with the platform, greeted in one post and/or by DM.
 */
export default defineBot({
  config: ConfigSchema,
  jobs: {
    greet: async (ctx, run) =>
      runCelebration(ctx, run, {
        kind: 'birthday',
        select: (users, date, filter) => birthdaysOn(users, date, filter).map((user) => ({ user })),
      }),
  },
});
