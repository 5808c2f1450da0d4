import type { BotContext } from 'intrabot';
import type { HelpdeskConfig } from './helpdesk-config';

/**
 * The triage wall's id: `config.wall` as given when it is an id, else the wall of that name, looked
 * up once (`GET /walls`) and kept in the store. The id is needed to find the request posts again.
 */
export async function triageWallId(ctx: BotContext<HelpdeskConfig>): Promise<number> {
  const { wall } = ctx.config;
  if (typeof wall === 'number') return wall;
  if (/^\d+$/.test(wall)) return Number(wall);
  const key = `wall-id:${wall}`;
  const known = await ctx.store.get<number>(key);
  if (known !== undefined) return known;
  for await (const w of ctx.api.walls.all()) {
    if (w.name.toLowerCase() !== wall.toLowerCase()) continue;
    await ctx.store.set(key, w.id);
    return w.id;
  }
  throw new Error(`config.wall: the tenant has no wall named "${wall}"`);
}
