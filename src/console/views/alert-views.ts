import type { BotManifest } from '../../bots/manifest';
import type { AlertInputView, AlertNotification, AlertsView, OutboxRow } from '../console-views';
import type { OutboxSources } from './outbox-rows';
import { digestViews, outboxRow } from './outbox-rows';

export interface AlertSources {
  now: number;
  /** The tenant `/alerts/...` serves without a `/t/:tenant` prefix. */
  defaultTenant: string;
  deployments: readonly { tenant: string; bot: string; manifest: BotManifest }[];
  recent: readonly AlertNotification[];
  countsOf(tenant: string, bot: string, input: string): { accepted: number; refused: number; failed: number };
  lastOf(tenant: string, bot: string, input: string): AlertNotification | undefined;
  outbox: OutboxSources;
}

/**
 * The alert inputs: where each listens and for what credential kind (never the credential), what
 * it was last sent and how that went, the messages alert inputs still have in the outbox, and the
 * storms being sent as digests.
 */
export function alertsView(sources: AlertSources): AlertsView {
  const inputs = sources.deployments.flatMap(({ tenant, bot, manifest }) =>
    manifest.alerts.map((input): AlertInputView => {
      const prefix = tenant === sources.defaultTenant ? '' : `/t/${tenant}`;
      return {
        tenant,
        bot,
        input: input.input,
        format: input.format,
        path: `${prefix}/alerts/${bot}/${input.input}`,
        auth: input.auth === undefined ? 'signature' : 'bearer' in input.auth ? 'bearer' : 'basic' in input.auth ? 'basic' : 'query_token',
        targets: inputTargets(manifest, input),
        counts: sources.countsOf(tenant, bot, input.input),
        last: sources.lastOf(tenant, bot, input.input) ?? null,
      };
    }),
  );
  const messages: OutboxRow[] = [...sources.outbox.live, ...sources.outbox.dead]
    .map((entry) => outboxRow(entry, sources.outbox.digests.get(entry.id)))
    .filter((row) => row.fromAlerts);
  return { now: sources.now, inputs, recent: [...sources.recent], messages, digests: digestViews(sources.outbox) };
}

/** The targets an input may post to: its own, those its routes name, or else every target of the bot. */
function inputTargets(manifest: BotManifest, input: BotManifest['alerts'][number]): string[] {
  const named = [...(input.targets ?? []), ...(input.route ?? []).flatMap((rule) => rule.targets)];
  return [...new Set(named.length > 0 ? named : Object.keys(manifest.targets))];
}
