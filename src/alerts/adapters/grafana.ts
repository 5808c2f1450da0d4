import { z } from 'zod';
import type { Alert, AlertGroup } from '../alert';
import { parseOrThrow } from '../../validation';
import { fromPrometheusAlert, linkIf, optional, PrometheusAlertSchema, PrometheusGroupFields } from './prometheus-alert';

/** Grafana's `ExtendedAlert`: Alertmanager's alert plus Grafana's URLs and values. */
const GrafanaAlertSchema = PrometheusAlertSchema.extend({
  silenceURL: z.string().optional(),
  dashboardURL: z.string().optional(),
  panelURL: z.string().optional(),
  imageURL: z.string().optional(),
  valueString: z.string().optional(),
  values: z.record(z.string(), z.unknown()).nullish(),
});
type GrafanaAlert = z.infer<typeof GrafanaAlertSchema>;

/**
 * Grafana unified alerting's webhook contact point body (`version: "1"`): Alertmanager's shape plus
 * `orgId`, `state`, `title`, `message`. The legacy (pre-9) single-alert shape is not accepted.
 */
export const GrafanaPayloadSchema = z.looseObject({
  alerts: z.array(GrafanaAlertSchema),
  groupKey: z.string().optional(),
  version: z.string().optional(),
  state: z.string().optional(),
  title: z.string().optional(),
  ...PrometheusGroupFields,
});

/**
 * Map a Grafana alerting notification to one group; each alert carries Grafana's silence,
 * dashboard and panel links, its values and its screenshot.
 *
 * @example parseGrafana(body)[0].alerts[0].value // 'A=2.3148, B=2.3148, C=1'
 */
export function parseGrafana(body: unknown): AlertGroup[] {
  const payload = parseOrThrow(GrafanaPayloadSchema, body, 'body');
  const groupKey = payload.groupKey ?? payload.title ?? '';
  const alerts = payload.alerts.map((raw) => fromGrafanaAlert(raw, groupKey));
  return [
    {
      source: 'grafana',
      groupKey,
      status: payload.status,
      alerts,
      commonLabels: payload.commonLabels,
      groupLabels: payload.groupLabels,
      ...optional('externalUrl', payload.externalURL),
      ...optional('receiver', payload.receiver),
      ...optional('truncatedAlerts', payload.truncatedAlerts),
    },
  ];
}

function fromGrafanaAlert(raw: GrafanaAlert, groupKey: string): Alert {
  const alert = fromPrometheusAlert(raw, {
    source: 'grafana',
    groupKey,
    extraLinks: [
      ...linkIf('dashboard', 'Dashboard', raw.dashboardURL),
      ...linkIf('panel', 'Panel', raw.panelURL),
      ...linkIf('silence', 'Silence', raw.silenceURL),
    ],
  });
  return {
    ...alert,
    ...optional('value', valueText(raw)),
    ...(raw.imageURL ? { images: [raw.imageURL] } : {}),
  };
}

/** `A=2.3148, B=2.3148, C=1` from `values`, as Grafana's default message prints it. */
function valueText(raw: GrafanaAlert): string | undefined {
  const entries = Object.entries(raw.values ?? {});
  if (entries.length === 0) return raw.valueString || undefined;
  return entries.map(([name, value]) => `${name}=${String(value)}`).join(', ');
}
