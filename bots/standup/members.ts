import { type BotContext, ConfigError } from 'intrabot';
import type { Member } from './working-day';

/** The group's id: an id as it is, a name looked up in `GET /groups` (any case). */
export async function groupId(ctx: BotContext<{ group: number | string }>): Promise<number> {
  const group = ctx.config.group;
  if (typeof group === 'number' || /^\d+$/.test(group)) return Number(group);
  for await (const g of ctx.api.groups.all({ per_page: 50 })) if (g.name.toLowerCase() === group.toLowerCase()) return Number(g.id);
  throw new ConfigError('config.group', `no group named "${group}"`);
}

/** The group's members (spec: Users, `GET /users?group_id=`), read fresh: `is_away` is a flag for now. */
export async function groupMembers(ctx: BotContext<{ group: number | string }>): Promise<Member[]> {
  const id = await groupId(ctx);
  const members: Member[] = [];
  for await (const user of ctx.api.users.all({ group_id: id, per_page: 50 })) {
    members.push({ id: Number(user.id), name: user.name, email: user.email, is_away: user.is_away });
  }
  return members;
}
