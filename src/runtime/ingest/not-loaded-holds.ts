import type { LoadedBotModule } from '../../bots/registry';
import type { Inbox, InboxEntry } from '../../store/inbox';
import { HOLD_MS } from '../../store/paused-bots';
import type { QueueLease } from '../../store/queue';

/** The note a delivery held for a bot that failed to load carries as its last error (the listings show it). */
export const NOT_LOADED_NOTE = 'held: its bot failed to load';

/** How many waiting deliveries a start looks through for ones its bots can now take. */
const SWEEP_LIMIT = 10_000;

/**
 * The bots of this runtime that failed to load (a syntax error saved under `intrabot dev`, a manifest
 * mistake) and whose name no loaded bot took: their deliveries are still verified and accepted, so the
 * platform is not refused and does not wait a minute to retry, and held here until a runtime that loads
 * the bot takes them.
 */
export function heldBotNames(failedNames: Iterable<string>, loaded: readonly Pick<LoadedBotModule, 'name'>[]): ReadonlySet<string> {
  const taken = new Set(loaded.map((bot) => bot.name));
  return new Set([...failedNames].filter((name) => !taken.has(name)));
}

/**
 * Holds a handed-out delivery of a bot that is not loaded: put off (not counted as a try, so never
 * dead-lettered for it) until a runtime that loads the bot releases it at start, or `HOLD_MS` at most
 * (then it is looked at again). Resolves false, holding nothing, for a loaded bot.
 */
export async function holdIfNotLoaded(held: ReadonlySet<string>, inbox: Pick<Inbox, 'defer'>, lease: QueueLease<InboxEntry>, now: number): Promise<boolean> {
  if (!held.has(lease.payload.bot)) return false;
  await inbox.defer(lease, now + HOLD_MS, NOT_LOADED_NOTE);
  return true;
}

/**
 * At start, before the inbox worker runs: the deliveries held while a bot failed to load (by this process
 * before a reload, or another replica) are made due now when this runtime loads that bot, oldest first.
 * Resolves to how many were released.
 */
export async function releaseNotLoadedHolds(inbox: Pick<Inbox, 'list' | 'requeue'>, loaded: readonly Pick<LoadedBotModule, 'name'>[]): Promise<number> {
  const names = new Set(loaded.map((bot) => bot.name));
  let released = 0;
  for (const entry of await inbox.list({ state: 'live', limit: SWEEP_LIMIT })) {
    if (entry.state !== 'pending' || entry.lastError !== NOT_LOADED_NOTE || !names.has(entry.payload.bot)) continue;
    released += Number(await inbox.requeue(entry.id));
  }
  return released;
}
