import { join } from 'node:path';
import { validateAlertInputs } from '../../alerts/alert-input';
import type { LoadedBotModule } from '../../bots/registry';
import { ConfigError } from '../../errors';
import { SANDBOX_REPORT_SECRET } from '../../webhooks/report';
import type { RuntimeConfig } from './config';

/**
 * The runtime's last check of a loaded bot (`loadBots`'s `check`): an alert input that cannot work (no
 * credential, the sandbox token in connected mode...), or a report signed with the sandbox's published
 * secret in connected mode, refuses the bot. Run while loading, before names are compared, so a bot
 * refused here never takes its name from a valid one.
 */
export function usableInMode(mode: RuntimeConfig['mode']): (bot: LoadedBotModule) => void {
  return (bot) => {
    try {
      validateAlertInputs(bot.manifest, mode);
      const sandboxSigned = bot.manifest.reports.findIndex((r) => r.secret === SANDBOX_REPORT_SECRET);
      if (mode === 'connected' && sandboxSigned >= 0) {
        throw new ConfigError(
          `reports.${sandboxSigned}.secret`,
          `report ${bot.manifest.reports[sandboxSigned]!.report} uses the sandbox's published secret, which connected mode does not accept: configure a secret of your own`,
        );
      }
    } catch (error) {
      // named like the manifest loader's errors: the file, then the field
      const where = error instanceof ConfigError ? `${join(bot.dir, 'bot.yaml')} ${error.key}: ` : '';
      throw new Error(`${where}${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
}
