import type { BotContext, BotEvent } from 'intrabot';
import { readUserWithDepartment } from 'intrabot/helpers';
import { congratulationWall } from './congratulation-wall';
import type { KudosConfig } from './kudos-config';
import { isOwnAward } from './own-awards';

/**
 * `achievement.awarded`: a congratulation on the holder's department wall, for public achievements
 * only (spec: Achievement, `visibility` — personal ones are seen by the employee and their managers
 * alone), and only for `celebrate` ids when configured.
 */
export async function celebrateAward(event: BotEvent<'achievement.awarded'>, ctx: BotContext<KudosConfig>): Promise<void> {
  const { achievement, user } = event.payload;
  if (achievement.visibility !== 'public') return;
  if (ctx.config.celebrate.length > 0 && !ctx.config.celebrate.includes(achievement.id)) return;
  if (await isOwnAward(ctx.store, { id: event.payload.id, achievementId: achievement.id, userId: user.id })) return;
  // the award names the department it was given in; without one, the holder's own department
  const department = event.payload.department ?? (await readUserWithDepartment(ctx, user.id)).department;
  const wall = await congratulationWall(ctx, department?.id);
  if (wall === undefined) {
    ctx.log.info('no department wall and no fallback wall: no congratulation', { user: user.id });
    return;
  }
  await ctx.post({ wall }, { template: 'awarded', data: { user, achievement: { emoji: '', ...achievement }, department: department ?? null } });
}
