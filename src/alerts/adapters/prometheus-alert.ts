import { z } from 'zod';
import { AlertStatusSchema, type Alert, type AlertLink } from '../alert';
import { labelsFingerprint } from '../fingerprint';
import { normalizeSeverity } from '../severity';
import { parseTimestamp } from '../timestamp';

const StringMapSchema = z.record(z.string(), z.string());

/** One alert as Alertmanager's `template.Alert` serialises it; Grafana's extends it. */
export const PrometheusAlertSchema = z.looseObject({
  status: AlertStatusSchema,
  labels: StringMapSchema,
  annotations: StringMapSchema.default({}),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().optional(),
});
export type PrometheusAlert = z.infer<typeof PrometheusAlertSchema>;

/** The notification fields Alertmanager's `template.Data` and Grafana's `ExtendedData` share. */
export const PrometheusGroupFields = {
  status: AlertStatusSchema,
  receiver: z.string().optional(),
  groupLabels: StringMapSchema.default({}),
  commonLabels: StringMapSchema.default({}),
  commonAnnotations: StringMapSchema.default({}),
  externalURL: z.string().optional(),
  truncatedAlerts: z.number().int().nonnegative().optional(),
};

export interface PrometheusAlertContext {
  source: string;
  groupKey: string | undefined;
  /** Links the source adds beyond runbook/dashboard/generator (silence, panel...). */
  extraLinks: AlertLink[];
}

/** Map one Alertmanager-style alert; the zero `endsAt` of a firing alert reads as unset. */
export function fromPrometheusAlert(raw: PrometheusAlert, context: PrometheusAlertContext): Alert {
  const { labels, annotations } = raw;
  const severityRaw = labels.severity ?? labels.priority;
  const endedAt = raw.status === 'resolved' ? parseTimestamp(raw.endsAt) : undefined;
  return {
    source: context.source,
    fingerprint: raw.fingerprint || labelsFingerprint(labels),
    status: raw.status,
    severity: normalizeSeverity(severityRaw),
    ...(severityRaw !== undefined && { severityRaw }),
    title: labels.alertname ?? 'Alert',
    summary: annotations.summary ?? annotations.message ?? firstLine(annotations.description) ?? '',
    ...(annotations.description !== undefined && { description: annotations.description }),
    labels,
    annotations,
    ...optional('startedAt', parseTimestamp(raw.startsAt)),
    ...optional('endedAt', endedAt),
    links: orderLinks([...annotationLinks(annotations), ...sourceLink(raw.generatorURL), ...context.extraLinks]),
    ...optional('groupKey', context.groupKey),
  };
}

/** A link only when the URL is there: empty strings are how Go senders say "none". */
export function linkIf(kind: AlertLink['kind'], title: string, url: string | undefined): AlertLink[] {
  return url ? [{ title, url, kind }] : [];
}

const LINK_ORDER: AlertLink['kind'][] = ['runbook', 'dashboard', 'panel', 'source', 'silence', 'action', 'link'];

/** Links in a fixed order by kind (runbook first: it is what a responder needs), each URL once. */
export function orderLinks(links: readonly AlertLink[]): AlertLink[] {
  const seen = new Set<string>();
  const unique = links.filter((link) => !seen.has(link.url) && seen.add(link.url));
  return unique.sort((a, b) => LINK_ORDER.indexOf(a.kind) - LINK_ORDER.indexOf(b.kind));
}

function annotationLinks(annotations: Record<string, string>): AlertLink[] {
  return [
    ...linkIf('runbook', 'Runbook', annotations.runbook_url ?? annotations.runbook),
    ...linkIf('dashboard', 'Dashboard', annotations.dashboard_url ?? annotations.dashboard),
  ];
}

function sourceLink(url: string | undefined): AlertLink[] {
  return linkIf('source', 'Source', url);
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split('\n', 1)[0];
}

/** `{ key: value }` when the value is there, `{}` otherwise (exactOptionalPropertyTypes-friendly). */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
