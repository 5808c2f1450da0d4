import { type BotContext, ConfigError } from 'intrabot';
import type { PairingConfig } from './pairing-config';
import { JOINED_KEY, LEFT_KEY, type MemberRef } from './pairing-store';

type Ctx = BotContext<PairingConfig>;

/**
 * Who is in this round: the group's members (read fresh; not those away, with `skip_away`) who did
 * not leave, and everyone who joined.
 */
export async function roundPool(ctx: Ctx): Promise<MemberRef[]> {
  const left = new Set((await ctx.store.get<number[]>(LEFT_KEY)) ?? []);
  const pool = new Map<number, MemberRef>();
  for (const member of await groupMembers(ctx)) if (!left.has(member.id)) pool.set(member.id, member);
  for (const member of (await ctx.store.get<MemberRef[]>(JOINED_KEY)) ?? []) pool.set(member.id, member);
  return [...pool.values()];
}

async function groupMembers(ctx: Ctx): Promise<MemberRef[]> {
  const id = await groupId(ctx, ctx.config.group);
  if (id === undefined) return [];
  const members: MemberRef[] = [];
  for await (const user of ctx.api.users.all({ group_id: id, per_page: 50 })) {
    if (ctx.config.skip_away && user.is_away) continue;
    members.push({ id: Number(user.id), name: user.name });
  }
  return members;
}

/** The group's id: an id as it is, a name looked up in `GET /groups` (any case); none when empty. */
async function groupId(ctx: Ctx, group: number | string): Promise<number | undefined> {
  if (group === '') return undefined;
  if (typeof group === 'number' || /^\d+$/.test(group)) return Number(group);
  for await (const g of ctx.api.groups.all({ per_page: 50 })) if (g.name.toLowerCase() === group.toLowerCase()) return Number(g.id);
  throw new ConfigError('config.group', `no group named "${group}"`);
}
