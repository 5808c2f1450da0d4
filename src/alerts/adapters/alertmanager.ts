import { z } from 'zod';
import type { AlertGroup, AlertLink } from '../alert';
import { parseOrThrow } from '../../validation';
import { fromPrometheusAlert, linkIf, optional, PrometheusAlertSchema, PrometheusGroupFields } from './prometheus-alert';

/**
 * Alertmanager's `webhook_config` body, version 4. `fingerprint`, `truncatedAlerts`,
 * `notification_reason` and `routeLabels` arrived in later releases, so all but the core are
 * optional and unknown keys are kept. `alerts` comes first so a body of another format is named
 * by the field that matters most.
 */
export const AlertmanagerPayloadSchema = z.looseObject({
  alerts: z.array(PrometheusAlertSchema),
  version: z.literal('4'),
  groupKey: z.string(),
  ...PrometheusGroupFields,
});
export type AlertmanagerPayload = z.infer<typeof AlertmanagerPayloadSchema>;

/**
 * Map an Alertmanager notification to one group. Each alert gets a silence link built from its
 * labels on `externalURL`, the way Alertmanager's own UI pre-fills a silence.
 *
 * @example parseAlertmanager(body)[0].alerts[0].links // [{ kind: 'runbook', ... }, { kind: 'silence', ... }]
 */
export function parseAlertmanager(body: unknown): AlertGroup[] {
  const payload = parseOrThrow(AlertmanagerPayloadSchema, body, 'body');
  const externalUrl = payload.externalURL?.replace(/\/+$/, '');
  const alerts = payload.alerts.map((raw) =>
    fromPrometheusAlert(raw, {
      source: 'alertmanager',
      groupKey: payload.groupKey,
      extraLinks: silenceLink(externalUrl, raw.labels),
    }),
  );
  return [
    {
      source: 'alertmanager',
      groupKey: payload.groupKey,
      status: payload.status,
      alerts,
      commonLabels: payload.commonLabels,
      groupLabels: payload.groupLabels,
      ...optional('externalUrl', externalUrl),
      ...optional('receiver', payload.receiver),
      ...optional('truncatedAlerts', payload.truncatedAlerts),
    },
  ];
}

/** `{a="1", b="2"}` as Alertmanager's silence filter reads it. */
export function silenceFilter(labels: Record<string, string>): string {
  const matchers = Object.keys(labels)
    .sort()
    .map((name) => `${name}=${JSON.stringify(labels[name] ?? '')}`);
  return `{${matchers.join(', ')}}`;
}

function silenceLink(externalUrl: string | undefined, labels: Record<string, string>): AlertLink[] {
  if (!externalUrl) return [];
  return linkIf('silence', 'Silence', `${externalUrl}/#/silences/new?filter=${encodeURIComponent(silenceFilter(labels))}`);
}
