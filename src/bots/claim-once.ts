import { defineLocal } from './middleware';

/** Takes `key` for `ttlMs`: true for exactly one caller across replicas until then. */
export type ClaimOnce = (key: string, ttlMs: number) => Promise<boolean>;

/**
 * What the runtime hands every run (through `ctx.locals`) for middleware that must decide once across
 * replicas (`cooldown`): a claim in the store, in the bot's own space on its tenant. `testBot` hands one
 * in memory.
 */
export const CLAIM_ONCE = defineLocal<ClaimOnce>('intrabot.claimOnce');
