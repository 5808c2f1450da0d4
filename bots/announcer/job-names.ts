import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseManifest } from '../../src/bots/manifest-loader';

/**
 * The jobs this bot's own `bot.yaml` schedules (tenant overrides included), except those it
 * handles otherwise. A bot's jobs are fixed when it is defined, while the announcements are
 * configuration: every scheduled job name gets the handler that publishes the config entry of that
 * name, so adding an announcement takes a `schedules` line and a config entry, no code.
 */
export function scheduledJobNames(except: readonly string[]): string[] {
  const file = fileURLToPath(new URL('./bot.yaml', import.meta.url));
  const manifest = parseManifest(readFileSync(file, 'utf8'), file, process.env);
  const names = new Set(manifest.schedules.map((s) => s.job));
  for (const override of Object.values(manifest.overrides)) override.schedules?.forEach((s) => names.add(s.job));
  return [...names].filter((name) => !except.includes(name));
}
