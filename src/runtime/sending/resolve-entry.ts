import type { ProvisionedBot } from '../../bots/provision/provisioner';
import type { WallNames } from '../../bots/provision/wall-names';
import { IntrabotError, InvalidInputError } from '../../errors';
import type { OutboxEntry } from '../../outbox/entry';

/** A message of a bot whose user this runtime does not know yet: it waits in the outbox (retried, not dead). */
export class BotUserPendingError extends IntrabotError {
  constructor(tenant: string, bot: string) {
    super('bot_user_pending', `the bot user of ${bot} on tenant ${tenant} is not known yet: provisioning has not finished; the message waits`);
  }
}

export interface EntryResolverSources {
  /** What this runtime's provisioning made of a bot on a tenant (`DeploymentTable.provisionedBot`); undefined until it finished. */
  provisionedBot(tenant: string, bot: string): ProvisionedBot | undefined;
  walls(tenant: string): WallNames | undefined;
}

/**
 * What a bot's post or direct message left for send time, filled in just before it is sent (the
 * sender's `resolve` step). Its bot's user comes from provisioning (a message queued before provisioning
 * finished waits for it: it is never sent as the token's user); a wall known by name only is looked up
 * in the stored listing, listed once if the walls never were.
 *
 * @example
 * const entry = await resolveEntry({ provisionedBot: (t, b) => table.provisionedBot(t, b), walls: (t) => engine.wallsOf(t) }, queued);
 */
export async function resolveEntry(sources: EntryResolverSources, entry: OutboxEntry): Promise<OutboxEntry> {
  if (entry.kind !== 'post' && entry.kind !== 'dm') return entry;
  const asBot = entry.botUserId === undefined && entry.bot !== undefined ? { botUserId: botUserOf(sources, entry.tenant, entry.bot) } : {};
  if (entry.kind === 'dm' || entry.wallId !== undefined || entry.wallName === undefined) return { ...entry, ...asBot };
  const walls = sources.walls(entry.tenant);
  if (!walls) throw new InvalidInputError('entry.tenant', `entry.tenant: no tenant ${entry.tenant} to resolve the wall "${entry.wallName}" on`);
  return { ...entry, ...asBot, wallId: await walls.resolve(entry.wallName, 'entry.wallName') };
}

function botUserOf(sources: EntryResolverSources, tenant: string, bot: string): number {
  const provisioned = sources.provisionedBot(tenant, bot);
  // another replica (a newer deployment) may know a bot this one does not: waiting is the safe answer
  if (!provisioned) throw new BotUserPendingError(tenant, bot);
  if (!provisioned.enabled)
    throw new InvalidInputError('entry.bot', `entry.bot: ${bot} is switched off on tenant ${tenant}: ${provisioned.reason ?? 'no reason given'}`);
  if (provisioned.botUserId === undefined) throw new InvalidInputError('entry.bot', `entry.bot: ${bot} has no bot user on tenant ${tenant}`);
  return provisioned.botUserId;
}
