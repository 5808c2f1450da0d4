import type { BotManifest } from '../../bots/manifest';
import type { ProvisionedBot } from '../../bots/provision/provisioner';
import type { BotLoadFailure, LoadedBotModule } from '../../bots/registry';
import type { BotsView, BotView } from '../console-views';

export interface BotSources {
  mode: 'sandbox' | 'connected';
  now: number;
  tenants: readonly { id: string; timezone: string }[];
  bots: readonly LoadedBotModule[];
  failures: readonly BotLoadFailure[];
  /** A bot's manifest as one tenant sees it, and what provisioning made of it there; undefined when not deployed there. */
  deployment(tenant: string, bot: string): { manifest: BotManifest; provisioned: ProvisionedBot | undefined } | undefined;
  /** Whether provisioning has answered for the tenant yet. */
  provisioned(tenant: string): boolean;
  /** The bot's pause on the tenant (why, since when), undefined while it runs. */
  paused?(tenant: string, bot: string): { reason: string | null; since: number } | undefined;
}

/**
 * The bots as the console lists them: what each listens to and does (events, schedules, commands,
 * alert inputs, reports, target names), and per tenant whether it runs, or why provisioning
 * switched it off, with the ids provisioning made. No configuration values: a bot's `config:` and
 * its targets' URLs may hold secrets.
 */
export function botsView(sources: BotSources): BotsView {
  return {
    now: sources.now,
    mode: sources.mode,
    tenants: sources.tenants.map((t) => ({ id: t.id, timezone: t.timezone })),
    bots: sources.bots.map((bot) => botView(sources, bot)),
    failed: sources.failures.map((f) => ({ dir: f.dir, name: f.name ?? null, error: f.error.message })),
  };
}

function botView(sources: BotSources, bot: LoadedBotModule): BotView {
  const { manifest } = bot;
  return {
    name: bot.name,
    displayName: manifest.display_name,
    events: manifest.events.map(describeSubscription),
    schedules: manifest.schedules.map((s) => ({ job: s.job, cron: s.cron, timezone: s.timezone ?? null })),
    commands: Object.keys(bot.definition.commands).sort(),
    alertInputs: manifest.alerts.map((a) => a.input),
    reports: manifest.reports.map((r) => r.report),
    targets: Object.entries(manifest.targets).map(([name, target]) => ({ name, kind: targetKind(target) })),
    warnings: bot.warnings.map((w) => `${w.field}: ${w.message}`),
    tenants: sources.tenants.flatMap((tenant) => {
      const deployment = sources.deployment(tenant.id, bot.name);
      if (!deployment) return [];
      const p = deployment.provisioned;
      return [
        {
          tenant: tenant.id,
          enabled: p?.enabled ?? true,
          reason: p?.enabled === false ? (p.reason ?? 'switched off') : null,
          provisioned: sources.provisioned(tenant.id),
          botUserId: p?.botUserId ?? null,
          webhookId: p?.webhookId ?? null,
          incoming: { ...(p?.incoming ?? {}) },
          paused: pauseOf(sources, tenant.id, bot.name),
        },
      ];
    }),
  };
}

function pauseOf(sources: BotSources, tenant: string, bot: string): { reason: string | null; since: number } | null {
  const pause = sources.paused?.(tenant, bot);
  return pause ? { reason: pause.reason, since: pause.since } : null;
}

/** `post.created`, or `comment.created (walls 3, 4)`. */
function describeSubscription(subscription: BotManifest['events'][number]): string {
  const filters = Object.entries(subscription)
    .filter(([key, value]) => key !== 'event' && Array.isArray(value))
    .map(([key, value]) => `${key} ${(value as unknown[]).join(', ')}`);
  return filters.length > 0 ? `${subscription.event} (${filters.join('; ')})` : subscription.event;
}

function targetKind(target: object): string {
  return Object.keys(target).find((key) => key !== 'on_uncertain') ?? 'unknown';
}
