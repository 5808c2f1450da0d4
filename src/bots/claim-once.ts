import { IntrabotError } from '../errors';
import type { BotContext } from './context';
import { defineLocal } from './middleware';

/** Takes `key` for `ttlMs`: true for exactly one caller across replicas until then. */
export type ClaimOnce = (key: string, ttlMs: number) => Promise<boolean>;

/**
 * What the runtime hands every run (through `ctx.locals`) for middleware that must decide once across
 * replicas (`cooldown`): a claim in the store, in the bot's own space on its tenant. `testBot` hands one
 * in memory.
 */
export const CLAIM_ONCE = defineLocal<ClaimOnce>('intrabot.claimOnce');

/**
 * Takes `key` for `ttlMs` in the bot's own space on its tenant: true for exactly one caller across
 * replicas and retries until then (a reminder sent once, a round drawn once). A run without the
 * runtime's claim (none hands one but the runtime and `testBot`) is refused with an error.
 *
 * @example
 * if (await claimOnce(ctx, `reminded:${announcementId}:${userId}`, 7 * 86_400_000)) await ctx.dm(userId, 'Please confirm');
 */
export async function claimOnce(ctx: Pick<BotContext<unknown>, 'locals'>, key: string, ttlMs: number): Promise<boolean> {
  const claim = CLAIM_ONCE.get(ctx);
  if (!claim) throw new IntrabotError('internal', "claimOnce: this run's ctx.locals has no claim (the runtime and testBot hand one to every run)");
  return claim(key, ttlMs);
}
