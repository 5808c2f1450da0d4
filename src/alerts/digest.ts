import type { Alert, Severity } from './alert';
import { InvalidInputError } from '../errors';
import { sanitizeText } from './sanitize';
import { measure, splitMessage, type SplitOptions } from './split';

export interface DigestOptions {
  /** The most messages the target's budget allows for these alerts (K). */
  maxMessages: number;
  /** The longest message (numbering included), in `unit`. */
  maxLength: number;
  unit?: SplitOptions['unit'];
  /** First line of the digest; default `N alerts: F firing, R resolved`. Trusted (not sanitised). */
  header?: string;
  /** Alerts the sender left out (Alertmanager's `truncatedAlerts`): the default header says so. */
  truncatedAlerts?: number;
}

/** How much of each alert the digest shows: everything, one line each, or grouped by title. */
export type DigestDetail = 'full' | 'line' | 'compact';

export interface Digest {
  messages: string[];
  detail: DigestDetail;
  /** False when even the compact form needs more than `maxMessages`: nothing is dropped then. */
  withinBudget: boolean;
}

const DETAILS: DigestDetail[] = ['full', 'line', 'compact'];
const SEVERITY_ORDER: Severity[] = ['critical', 'error', 'warning', 'info', 'none'];

/**
 * Coalesce a storm of alerts for one target into at most `maxMessages` texts that together name
 * every alert (its status, title and what tells it apart from same-titled alerts), each within
 * `maxLength`. It tries the fullest form first and falls back to one line per alert, then to one
 * line per title listing the alerts; if even that is too long it still returns every alert (never
 * drops one) and says `withinBudget: false`. Alert text is sanitised; firing alerts come first,
 * most severe first.
 *
 * @example
 * const { messages } = buildDigest(group.alerts, { maxMessages: 3, maxLength: 4000 });
 */
export function buildDigest(alerts: readonly Alert[], options: DigestOptions): Digest {
  if (!Number.isInteger(options.maxMessages) || options.maxMessages < 1) {
    throw new InvalidInputError('maxMessages', 'maxMessages: must be a positive integer');
  }
  const sorted = sortForDigest(alerts);
  const identities = identitiesOf(sorted);
  const header = options.header ?? defaultHeader(sorted, options.truncatedAlerts ?? 0);
  let last: Digest | undefined;
  for (const detail of DETAILS) {
    const body = render(detail, sorted, identities, options);
    const messages = splitMessage(`${header}\n\n${body}`, { maxLength: options.maxLength, numbered: true, unit: options.unit ?? 'chars' });
    last = { messages, detail, withinBudget: messages.length <= options.maxMessages };
    if (last.withinBudget) return last;
  }
  return last as Digest;
}

function sortForDigest(alerts: readonly Alert[]): Alert[] {
  const rank = (alert: Alert): number => (alert.status === 'firing' ? 0 : 10) + SEVERITY_ORDER.indexOf(alert.severity);
  return alerts
    .map((alert, index) => ({ alert, index }))
    .sort((a, b) => rank(a.alert) - rank(b.alert) || a.index - b.index)
    .map((x) => x.alert);
}

function defaultHeader(alerts: readonly Alert[], truncated: number): string {
  const firing = alerts.filter((alert) => alert.status === 'firing').length;
  const counts = `${alerts.length} alerts: ${firing} firing, ${alerts.length - firing} resolved`;
  return truncated > 0 ? `${counts} (${truncated} more left out by the sender)` : counts;
}

const statusTag = (alert: Alert): string => (alert.status === 'firing' ? '[FIRING]' : '[RESOLVED]');
const groupKeyOf = (alert: Alert): string => `${alert.status}\u0000${alert.title}`;

interface Identity {
  /** `namespace=auth pod=auth-api-1` */
  labels: string;
  /** `auth/auth-api-1`, for the compact form */
  values: string;
}

/**
 * What tells an alert apart from the others with the same status and title: the labels whose
 * values differ among them (`namespace=auth pod=auth-api-1`), or the fingerprint when none do.
 */
function identitiesOf(alerts: readonly Alert[]): Map<Alert, Identity> {
  const byGroup = new Map<string, Alert[]>();
  for (const alert of alerts) byGroup.set(groupKeyOf(alert), [...(byGroup.get(groupKeyOf(alert)) ?? []), alert]);
  const identities = new Map<Alert, Identity>();
  for (const members of byGroup.values()) {
    const names = [...new Set(members.flatMap((alert) => Object.keys(alert.labels)))].sort();
    const varying = names.filter((name) => new Set(members.map((alert) => alert.labels[name])).size > 1);
    for (const alert of members) {
      const present = varying.filter((name) => alert.labels[name] !== undefined);
      const fallback = members.length > 1 ? alert.fingerprint : '';
      const labels = present.map((name) => `${name}=${alert.labels[name]}`).join(' ') || fallback;
      const values = [...new Set(present.map((name) => alert.labels[name]))].join('/') || fallback;
      identities.set(alert, { labels: sanitizeText(labels), values: sanitizeText(values) });
    }
  }
  return identities;
}

function render(detail: DigestDetail, alerts: readonly Alert[], identities: Map<Alert, Identity>, options: DigestOptions): string {
  // half a message: whole lines then pack into messages without leaving them half empty
  if (detail === 'compact') return renderCompact(alerts, identities, Math.floor(options.maxLength / 2), options.unit);
  const lines = alerts.map((alert) => {
    const identity = identities.get(alert)?.labels ?? '';
    return detail === 'full' ? renderFull(alert, identity) : renderLine(alert, identity);
  });
  return lines.join(detail === 'full' ? '\n\n' : '\n');
}

function renderFull(alert: Alert, identity: string): string {
  const severity = alert.severity === 'none' ? '' : ` ${alert.severity}`;
  const lines = [`${statusTag(alert)}${severity} ${sanitizeText(alert.title)}`];
  if (alert.summary) lines.push(sanitizeText(alert.summary));
  if (alert.description && alert.description !== alert.summary) lines.push(sanitizeText(alert.description));
  if (identity) lines.push(identity);
  const runbook = alert.links.find((link) => link.kind === 'runbook');
  if (runbook) lines.push(`Runbook: ${runbook.url}`);
  return lines.join('\n');
}

function renderLine(alert: Alert, identity: string): string {
  const parts = [`${statusTag(alert)} ${sanitizeText(alert.title)}`, sanitizeText(alert.summary).replace(/\n+/g, ' '), identity];
  return parts.filter((part) => part.trim() !== '').join(' — ');
}

function renderCompact(alerts: readonly Alert[], identities: Map<Alert, Identity>, lineLimit: number, unit: SplitOptions['unit']): string {
  const groups = new Map<string, Alert[]>();
  for (const alert of alerts) groups.set(groupKeyOf(alert), [...(groups.get(groupKeyOf(alert)) ?? []), alert]);
  return [...groups.values()].flatMap((members) => compactLines(members, identities, lineLimit, unit)).join('\n');
}

/**
 * One title's alerts as lines that each repeat status and title, so a line stands on its own in
 * whichever message it lands: `[FIRING] KubePodNotReady ×105: auth/auth-api-1, auth/auth-api-2`.
 */
function compactLines(members: Alert[], identities: Map<Alert, Identity>, lineLimit: number, unit: SplitOptions['unit']): string[] {
  const first = members[0] as Alert;
  const head = `${statusTag(first)} ${sanitizeText(first.title)}${members.length > 1 ? ` ×${members.length}` : ''}`;
  const names = members.map((alert) => identities.get(alert)?.values ?? '').filter((identity) => identity !== '');
  if (names.length === 0) return [head];
  const lines: string[] = [];
  let current: string[] = [];
  for (const name of names) {
    const candidate = `${head}: ${[...current, name].join(', ')}`;
    if (current.length > 0 && measure(candidate, unit) > lineLimit) {
      lines.push(`${head}: ${current.join(', ')}`);
      current = [];
    }
    current.push(name);
  }
  lines.push(`${head}: ${current.join(', ')}`);
  return lines;
}
