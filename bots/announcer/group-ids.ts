import { type BotContext, ConfigError } from 'intrabot';

/**
 * Group ids for a config's `groups`: ids as they are, names looked up in `GET /groups`
 * (case-insensitively). An unknown name is a configuration error naming it.
 */
export async function groupIds(ctx: BotContext<unknown>, groups: readonly (number | string)[], field: string): Promise<number[]> {
  const names = groups.filter((g): g is string => typeof g === 'string' && !/^\d+$/.test(g));
  const byName = new Map<string, number>();
  if (names.length > 0) {
    for await (const group of ctx.api.groups.all({ per_page: 50 })) byName.set(group.name.toLowerCase(), Number(group.id));
  }
  return groups.map((g) => {
    if (typeof g === 'number' || /^\d+$/.test(g)) return Number(g);
    const id = byName.get(g.toLowerCase());
    if (id === undefined) throw new ConfigError(field, `no group named "${g}"`);
    return id;
  });
}
