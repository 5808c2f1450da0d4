import { basename } from 'node:path';
import { deploysTo, manifestForTenant, type BotManifest } from '../../bots/manifest';
import { loadBotDirs } from '../../bots/manifest-loader';
import type { RuntimeConfig } from '../../runtime/config/config';
import { withSandboxEnv } from '../../runtime/config/sandbox-env';
import type { ReportName } from '../../webhooks/events';

/**
 * A bot's manifest as the runtime sees it on one tenant: read from the bots folder with `${env:...}`
 * references resolved from the same environment (in sandbox mode with `sandbox.env` under it), and
 * the tenant's overrides applied. Answers the problem, for the user, when there is none to use.
 */
export async function botManifestFor(
  config: RuntimeConfig,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  bot: string,
  tenant: string,
): Promise<BotManifest | string> {
  const resolved = config.mode === 'sandbox' ? withSandboxEnv(env, cwd) : env;
  const loaded = await loadBotDirs(config.bots_dir, resolved);
  const found = loaded.find((l) => (l.ok ? l.manifest.name === bot : basename(l.dir) === bot));
  if (!found) return `no bot "${bot}" in ${config.bots_dir}`;
  if (!found.ok) return found.error.message;
  if (!deploysTo(found.manifest, tenant)) return `bot "${bot}" is not deployed to tenant ${tenant} (see tenants in its bot.yaml)`;
  return manifestForTenant(found.manifest, tenant);
}

/** The signing secret of `report` in the manifest, or why there is none. */
export function reportSecret(manifest: BotManifest, report: ReportName): { secret: string } | { problem: string } {
  const entry = manifest.reports.find((r) => r.report === report);
  if (entry) return { secret: entry.secret };
  const listed = manifest.reports.map((r) => r.report).join(', ') || 'none';
  return { problem: `bot "${manifest.name}" does not take the report ${report}: its bot.yaml reports are: ${listed}` };
}

/** The walls a bot's subscription to `event` is narrowed to; undefined when it takes every wall. */
export function wallsOf(manifest: BotManifest, event: string): number[] | undefined {
  const sub = manifest.events.find((s) => s.event === event);
  return sub?.walls;
}
