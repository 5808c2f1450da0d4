import type { BotContext } from '../context';

/** A department as found in a user's groups. */
export interface Department {
  id: number;
  name: string;
}

/** Wall ids by the group they are scoped to, kept this long before the walls are listed again. */
const WALLS_TTL_MS = 60 * 60_000;
const WALLS_KEY = 'walls-by-group';

/** A user as `GET /users/{id}` answers, with their department picked out. */
export interface UserWithDepartment {
  user: { id: number; name: string; first_name: string; title: string | null };
  department: Department | undefined;
}

/**
 * The user in full and their department (the first group of type `department`), or no department
 * when they belong to none. An event's embedded user may be reduced, so the user is read again.
 */
export async function readUserWithDepartment(ctx: BotContext<unknown>, userId: number): Promise<UserWithDepartment> {
  const user = await ctx.api.users.get(userId);
  const group = user.groups.find((g) => g.type === 'department');
  return {
    user: { id: Number(user.id), name: user.name, first_name: user.first_name, title: user.title },
    department: group ? { id: Number(group.id), name: group.name } : undefined,
  };
}

/**
 * The wall scoped to exactly this department (spec: Wall, `groups`), or undefined. Walls are listed
 * once an hour at most and remembered in the bot's store.
 */
export async function departmentWallOf(ctx: BotContext<unknown>, departmentId: number): Promise<number | undefined> {
  let byGroup = await ctx.store.get<Record<string, number>>(WALLS_KEY);
  if (!byGroup) {
    byGroup = {};
    for await (const wall of ctx.api.walls.all({ per_page: 50 })) {
      // a wall scoped to several groups is not any one department's wall
      const only = wall.groups.length === 1 ? wall.groups[0] : undefined;
      if (only) byGroup[String(only.id)] = Number(wall.id);
    }
    await ctx.store.set(WALLS_KEY, byGroup, { ttlMs: WALLS_TTL_MS });
  }
  return byGroup[String(departmentId)];
}
