import type { BotContext } from '../../src';
import { departmentWallOf } from '../../src/bots/helpers/department-wall';

/**
 * Where a congratulation goes: the department's wall, else the configured fallback wall, else
 * nowhere (undefined).
 */
export async function congratulationWall(ctx: BotContext<{ fallback_wall: string }>, departmentId: number | undefined): Promise<number | string | undefined> {
  const wall = departmentId === undefined ? undefined : await departmentWallOf(ctx, departmentId);
  return wall ?? (ctx.config.fallback_wall || undefined);
}
