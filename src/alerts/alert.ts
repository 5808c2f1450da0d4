import { z } from 'zod';

/**
 * The one Alert model every monitoring source is mapped into. Adapters keep what the source said
 * (`severityRaw`, `labels`, `annotations`) next to the normalised fields, so templates and routing
 * can use either.
 */
export const AlertStatusSchema = z.enum(['firing', 'resolved']);
export type AlertStatus = z.infer<typeof AlertStatusSchema>;

/** Normalised severity, ordered most to least urgent; `none` when the source did not say. */
export const SeveritySchema = z.enum(['critical', 'error', 'warning', 'info', 'none']);
export type Severity = z.infer<typeof SeveritySchema>;

/** What a link is for, so a template can pick "the runbook" without matching on titles. */
export const LinkKindSchema = z.enum(['runbook', 'dashboard', 'panel', 'silence', 'source', 'action', 'link']);
export type LinkKind = z.infer<typeof LinkKindSchema>;

export const AlertLinkSchema = z.object({
  title: z.string(),
  url: z.string().min(1),
  kind: LinkKindSchema,
});
export type AlertLink = z.infer<typeof AlertLinkSchema>;

const StringMapSchema = z.record(z.string(), z.string());

export const AlertSchema = z.object({
  /** Which adapter (or generic mapping) produced it: `alertmanager`, `grafana`, `slack`, `sentry`... */
  source: z.string().min(1),
  /** Stable id of one alert across firing and resolved notifications. */
  fingerprint: z.string().min(1),
  status: AlertStatusSchema,
  severity: SeveritySchema,
  /** The severity as the source spelled it (`High`, `P2`, `fatal`), when it said one. */
  severityRaw: z.string().optional(),
  title: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  /** The measured value(s) behind the alert, e.g. Grafana's `A=2.3148, C=1`. */
  value: z.string().optional(),
  labels: StringMapSchema,
  annotations: StringMapSchema.optional(),
  /** ISO 8601 (UTC); absent when the source did not say (Go's zero time counts as unset). */
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  links: z.array(AlertLinkSchema),
  /** Image URLs worth attaching as media (Grafana screenshots, Slack image blocks). */
  images: z.array(z.string()).optional(),
  groupKey: z.string().optional(),
});
export type Alert = z.infer<typeof AlertSchema>;

/** One notification's worth of alerts, as the source grouped them (one alert for single-alert sources). */
export const AlertGroupSchema = z.object({
  source: z.string().min(1),
  groupKey: z.string(),
  /** `firing` while any alert in the group fires. */
  status: AlertStatusSchema,
  alerts: z.array(AlertSchema),
  commonLabels: StringMapSchema,
  groupLabels: StringMapSchema.optional(),
  externalUrl: z.string().optional(),
  receiver: z.string().optional(),
  /** Alerts the sender left out because of its `max_alerts`; they are not in `alerts`. */
  truncatedAlerts: z.number().int().nonnegative().optional(),
});
export type AlertGroup = z.infer<typeof AlertGroupSchema>;

/** The labels every alert shares with the same value. */
export function commonLabelsOf(alerts: readonly Alert[]): Record<string, string> {
  const [first, ...rest] = alerts;
  if (!first) return {};
  const common: Record<string, string> = {};
  for (const [name, value] of Object.entries(first.labels)) {
    if (rest.every((alert) => alert.labels[name] === value)) common[name] = value;
  }
  return common;
}

/** A group fires while any of its alerts does. */
export function groupStatusOf(alerts: readonly Alert[]): AlertStatus {
  return alerts.some((alert) => alert.status === 'firing') ? 'firing' : 'resolved';
}
