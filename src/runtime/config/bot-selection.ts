import type { ManifestHeading } from '../../bots/manifest-peek';
import type { BotRegistry } from '../../bots/registry';
import { suggest } from '../../bots/commands/suggest';
import { ConfigError } from '../../errors';
import type { RuntimeConfig } from './config';

/** What decides which bots a runtime deploys: its mode and the bots enabled by name. */
export interface BotChoice {
  mode: RuntimeConfig['mode'];
  /** `INTRABOT_BOTS` / `bots:` in intrabot.yaml; undefined when not set. */
  enabled: readonly string[] | undefined;
  /** How the user set `enabled`, for messages: `INTRABOT_BOTS` or `intrabot.yaml: bots`. */
  setting: string;
}

/**
 * Why a bot is not deployed, or undefined when it is (`loadBots`'s `skip`). With a list of bots set,
 * exactly those deploy, in either mode. Without one, every bot deploys in sandbox mode, and every bot
 * but the examples in connected mode: an example (birthday posts, weekly menus) never reaches a real
 * tenant unless someone named it.
 *
 * @example
 * skipReason({ mode: 'connected', enabled: undefined, setting: 'INTRABOT_BOTS' }, { name: 'birthday', example: true })
 * // => 'example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it'
 */
export function skipReason(choice: BotChoice, bot: ManifestHeading): string | undefined {
  if (choice.enabled) {
    if (choice.enabled.includes(bot.name)) return undefined;
    const listed = `${choice.setting} (${choice.enabled.join(',')})`;
    return bot.example ? `example bot, not enabled: add it to ${listed} to deploy it` : `not in ${listed}`;
  }
  if (bot.example && choice.mode === 'connected') return `example bot, not enabled: set INTRABOT_BOTS=${bot.name} to deploy it`;
  return undefined;
}

/**
 * Every name in the list must be a bot in the bots folder (loaded, skipped or failed to load): a
 * misspelt name would otherwise deploy nothing, silently. Throws a `ConfigError` naming the setting
 * and the bots there are.
 */
export function checkEnabledNames(choice: BotChoice, registry: BotRegistry): void {
  if (!choice.enabled) return;
  const present = [...registry.bots.map((b) => b.name), ...registry.skipped.map((b) => b.name), ...registry.failures.flatMap((f) => (f.name ? [f.name] : []))];
  const unknown = choice.enabled.filter((name) => !present.includes(name));
  if (unknown.length === 0) return;
  const first = unknown[0]!;
  const close = suggest(first, present);
  const known = present.length ? `the bots are: ${[...new Set(present)].sort().join(', ')}` : 'no bot was found in the bots folder';
  const names = unknown.map((n) => `"${n}"`).join(', ');
  throw new ConfigError(choice.setting, `${choice.setting}: no bot named ${names}${close ? ` (did you mean "${close}"?)` : ''}; ${known}`);
}
