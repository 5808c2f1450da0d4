import type { BotManifest } from '../../bots/manifest';
import type { ProvisionedBot } from '../../bots/provision/provisioner';
import type { BotLoadFailure, LoadedBotModule } from '../../bots/registry';
import type { BotsView, BotView, StartingView } from '../console-views';

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
  /** Start-up provisioning's progress while it runs; undefined once the runtime has started. */
  provisioning?(): StartingView | undefined;
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
    provisioning: sources.provisioning?.() ?? null,
  };
}

function botView(sources: BotSources, bot: LoadedBotModule): BotView {
  const { manifest } = bot;
  return {
    name: bot.name,
    displayName: manifest.display_name,
    description: manifest.description ?? summarise(manifest, Object.keys(bot.definition.commands).sort()),
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

/**
 * What a bot without a `description` does, from its manifest and commands, in one line.
 *
 * @example summarise(ops, ['oncall', 'status']) // 'Answers /oncall, /status; reacts to post.created, comment.created'
 */
export function summarise(manifest: BotManifest, commands: readonly string[]): string {
  const events = manifest.events.map((e) => e.event).filter((event) => commands.length === 0 || !['post.created', 'comment.created'].includes(event));
  const parts = [
    commands.length ? `answers ${commands.map((c) => `/${c}`).join(', ')}` : undefined,
    events.length ? `reacts to ${[...new Set(events)].join(', ')}` : undefined,
    manifest.schedules.length ? `runs ${manifest.schedules.map((s) => `${s.job} (${s.cron})`).join(', ')}` : undefined,
    manifest.alerts.length ? `forwards alerts from ${manifest.alerts.map((a) => a.input).join(', ')}` : undefined,
    manifest.reports.length ? `reads the reports ${manifest.reports.map((r) => r.report).join(', ')}` : undefined,
  ].filter((part): part is string => part !== undefined);
  const line = parts.length ? parts.join('; ') : 'does nothing yet: no command, event, job or alert input';
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}`;
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
