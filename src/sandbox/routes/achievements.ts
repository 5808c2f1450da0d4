import type { SandboxModule } from '../module';
import { seedAchievements } from '../seed/achievements';
import { registerAchievementRoutes } from './achievements/achievement-routes';
import { registerAwardRoutes } from './achievements/award-routes';
import { dailyTenureCheck } from './achievements/automatic';
import { registerAchievementControl } from './achievements/control';

/**
 * Achievements and awards (spec: Achievement, Award, Achievement publication state, Achievements):
 * the API, the daily tenure check on the sandbox clock, and completion awards through the control
 * route `POST /_sandbox/users/:id/complete`.
 */
export const achievementsModule: SandboxModule = {
  name: 'achievements',
  api(router, ctx) {
    registerAchievementRoutes(router, ctx);
    registerAwardRoutes(router, ctx);
  },
  control(app, ctx) {
    registerAchievementControl(app, ctx);
  },
  start(ctx) {
    ctx.onTick(() => {
      dailyTenureCheck(ctx);
    });
  },
  seed(ctx, options) {
    if (options.seed !== 'empty') seedAchievements(ctx);
  },
};
