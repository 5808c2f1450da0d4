import type { Alert, AlertGroup, AlertLink } from './alert';
import type { AlertChange } from './dedupe';
import { sanitizeAlert } from './sanitize';

/** Labels every template already shows elsewhere, or that only say which machine evaluated the rule. */
const HIDDEN_LABELS = new Set(['alertname', 'severity', 'prometheus', 'grafana_folder', 'instance_group']);
const NAMED_LINKS = new Set(['runbook', 'dashboard', 'silence', 'source']);

/** One alert as templates see it: the sanitised alert plus ready-to-print fields. */
export interface AlertView extends Alert {
  /** `new`, `refired` or `resolved`. */
  change: AlertChange['kind'];
  /** `CRITICAL`, `WARNING`...; empty when the source gave no severity. */
  severityLabel: string;
  /** Labels worth reading, as `name=value` pairs (the alert name and severity are shown apart). */
  labelList: Array<{ name: string; value: string }>;
  labelText: string;
  runbook: string | null;
  dashboard: string | null;
  silence: string | null;
  sourceUrl: string | null;
  /** Links other than the four above (panel, actions, plain links). */
  otherLinks: AlertLink[];
  description: string;
  value: string;
  startedAt: string;
  endedAt: string;
  /** How long it fired, for resolved alerts (`15m 13s`); empty when unknown. */
  duration: string;
}

/** What `alerts/firing`, `alerts/resolved` and `alerts/digest` receive. */
export interface AlertMessageView {
  status: 'firing' | 'resolved';
  alerts: AlertView[];
  count: number;
  firingCount: number;
  resolvedCount: number;
  /** Only set when the message holds one alert: `{{#if single}}` templates a short form. */
  single: AlertView | null;
  /** Labels shared by every alert of the message, `name=value`. */
  commonLabelText: string;
  bot: string;
  input: string;
  target: string;
  externalUrl: string | null;
  /** Who is on call for the firing alerts, by the route that sent them (`oncall:`), names joined; null when no route names a team. */
  oncall: string | null;
}

/**
 * The template data of one message. Every alert passes through `sanitizeAlert`, so no alert text
 * can mention anyone or form markup; absent fields are empty strings or `null` (templates run in
 * strict mode, where a missing field is an error).
 */
export function messageView(
  changes: readonly AlertChange[],
  context: { bot: string; input: string; target: string; group: AlertGroup; oncall?: readonly string[] },
): AlertMessageView {
  const alerts = changes.map(alertView);
  const firingCount = alerts.filter((alert) => alert.status === 'firing').length;
  return {
    status: firingCount > 0 ? 'firing' : 'resolved',
    alerts,
    count: alerts.length,
    firingCount,
    resolvedCount: alerts.length - firingCount,
    single: alerts.length === 1 ? (alerts[0] ?? null) : null,
    commonLabelText: labelPairs(commonOf(alerts.map((alert) => alert.labels)))
      .map(pairText)
      .join(', '),
    bot: context.bot,
    input: context.input,
    target: context.target,
    externalUrl: context.group.externalUrl ?? null,
    // a name from the manifest, not from the alert: it is shown as written
    oncall: context.oncall?.length ? context.oncall.join(', ') : null,
  };
}

/** One change's alert as the templates see it. */
export function alertView(change: AlertChange): AlertView {
  const alert = sanitizeAlert(change.alert);
  const linkOf = (kind: string): string | null => alert.links.find((link) => link.kind === kind)?.url ?? null;
  const labelList = labelPairs(alert.labels);
  return {
    ...alert,
    change: change.kind,
    severityLabel: alert.severity === 'none' ? '' : alert.severity.toUpperCase(),
    labelList,
    labelText: labelList.map(pairText).join(', '),
    runbook: linkOf('runbook'),
    dashboard: linkOf('dashboard') ?? linkOf('panel'),
    silence: linkOf('silence'),
    sourceUrl: linkOf('source'),
    otherLinks: alert.links.filter((link) => !NAMED_LINKS.has(link.kind)),
    description: detailOf(alert.description, alert.summary),
    value: alert.value ?? '',
    startedAt: alert.startedAt ?? '',
    endedAt: alert.endedAt ?? '',
    duration: durationOf(alert.startedAt, alert.endedAt),
  };
}

/** The description without what the summary already said (Slack-style texts repeat their first line). */
function detailOf(description: string | undefined, summary: string): string {
  if (description === undefined) return '';
  if (summary !== '' && description.startsWith(summary)) return description.slice(summary.length).trim();
  return description;
}

function labelPairs(labels: Record<string, string>): Array<{ name: string; value: string }> {
  return Object.entries(labels)
    .filter(([name, value]) => !HIDDEN_LABELS.has(name) && !name.startsWith('__') && value !== '')
    .map(([name, value]) => ({ name, value }));
}

const pairText = (pair: { name: string; value: string }): string => `${pair.name}=${pair.value}`;

function commonOf(all: Array<Record<string, string>>): Record<string, string> {
  const [first, ...rest] = all;
  if (!first || rest.length === 0) return {};
  return Object.fromEntries(Object.entries(first).filter(([name, value]) => rest.every((labels) => labels[name] === value)));
}

/** `2h 5m`, `15m 13s`, `42s`; empty when either end is unknown or the order is wrong. */
export function durationOf(startedAt: string | undefined, endedAt: string | undefined): string {
  if (!startedAt || !endedAt) return '';
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '';
  const total = Math.round(ms / 1000);
  const [d, h, m, s] = [Math.floor(total / 86400), Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60];
  const parts = [d && `${d}d`, h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean).slice(0, 2);
  return parts.length ? parts.join(' ') : '0s';
}
