import type { BotLoadFailure, LoadedBotModule, SkippedBot } from '../../bots/registry';
import { closestName } from '../../did-you-mean';
import { IntrabotError } from '../../errors';

/** What a runtime found in its bots folder and deployed where (its registry and deployment table, or `inspect()`). */
export interface BotsFound {
  bots: readonly Pick<LoadedBotModule, 'name'>[];
  skipped: readonly Pick<SkippedBot, 'name' | 'reason'>[];
  failures: readonly Pick<BotLoadFailure, 'name' | 'error'>[];
  deployments: readonly { tenant: string; bot: string }[];
}

/** A bot the bots folder has, not deployed to the tenant: skipped at start-up, failed to load, or for other tenants. */
export class BotNotDeployedError extends IntrabotError {
  constructor(tenant: string, bot: string, reason: string) {
    super('unknown_bot', `bot "${bot}" is not deployed to tenant "${tenant}": ${reason}`, { details: { tenant, bot, reason } });
  }
}

/** A name no bot in the bots folder has. */
export class UnknownBotError extends IntrabotError {
  /** `deployed`: the bots deployed to the tenant, listed; `known`: every name, for the "did you mean". */
  constructor(tenant: string, bot: string, deployed: readonly string[], known: readonly string[]) {
    const close = closestName(bot, known);
    const there = deployed.length ? `the bots deployed to tenant "${tenant}" are: ${deployed.join(', ')}` : `no bot is deployed to tenant "${tenant}"`;
    super('unknown_bot', `no bot named "${bot}"${close ? ` (did you mean "${close}"?)` : ''}; ${there}`, { details: { tenant, bot } });
  }
}

/** The first line of a load failure: the file and field, without a stack or the rest of a long message. */
function firstLine(error: Error): string {
  return error.message.split('\n')[0] ?? error.message;
}

/**
 * Why `bot` is not deployed to `tenant`, worded as start-up words it (`skipped birthday: example bot, not
 * enabled: set INTRABOT_BOTS=birthday to deploy it`), or undefined when it is deployed there. A name no
 * bot has is an `UnknownBotError` with the closest name and the bots that are deployed there.
 *
 * @example
 * botNotDeployed(runtime.inspect(), 'default', 'birthday')?.message
 * // => 'bot "birthday" is not deployed to tenant "default": example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it'
 */
export function botNotDeployed(found: BotsFound, tenant: string, bot: string): IntrabotError | undefined {
  if (found.deployments.some((d) => d.tenant === tenant && d.bot === bot)) return undefined;
  const skipped = found.skipped.find((s) => s.name === bot);
  if (skipped) return new BotNotDeployedError(tenant, bot, skipped.reason);
  const failed = found.failures.find((f) => f.name === bot);
  if (failed) return new BotNotDeployedError(tenant, bot, `it failed to load: ${firstLine(failed.error)}`);
  const loaded = found.bots.find((b) => b.name === bot);
  if (loaded) {
    const elsewhere = found.deployments.filter((d) => d.bot === bot).map((d) => d.tenant);
    const where = elsewhere.length ? `it runs on ${elsewhere.join(', ')}` : 'it runs on no tenant';
    return new BotNotDeployedError(tenant, bot, `${where} (see tenants: in its bot.yaml)`);
  }
  const deployed = found.deployments.filter((d) => d.tenant === tenant).map((d) => d.bot);
  const known = [...found.bots.map((b) => b.name), ...found.skipped.map((s) => s.name), ...found.failures.flatMap((f) => (f.name ? [f.name] : []))];
  return new UnknownBotError(tenant, bot, [...new Set(deployed)].sort(), [...new Set(known)]);
}
