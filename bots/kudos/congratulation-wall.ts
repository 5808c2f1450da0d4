import type { BotContext } from 'intrabot';
import { departmentWallOf } from 'intrabot/helpers';

/**
 * Where a congratulation goes: the department's wall, else the configured fallback wall, else
 * nowhere (undefined).
 */
export async function congratulationWall(ctx: BotContext<{ fallback_wall: string }>, departmentId: number | undefined): Promise<number | string | undefined> {
  const wall = departmentId === undefined ? undefined : await departmentWallOf(ctx, departmentId);
  return wall ?? (ctx.config.fallback_wall || undefined);
}
