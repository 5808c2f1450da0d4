import { commonLabelsOf, groupStatusOf, type Alert, type AlertGroup } from './alert';
import { silenceFilter } from './adapters/alertmanager';

export interface GroupingOptions {
  /** Label names to group by, as Alertmanager's `group_by`; `[]` puts every alert in one group. */
  by: readonly string[];
  /** The groups' `source`; default: the first alert's. */
  source?: string;
}

/**
 * Regroup alerts by label values, e.g. the alerts one target receives from several notifications
 * or single-alert sources (Slack, generic). Groups keep first-seen order, alerts keep input order;
 * the group key reads like Alertmanager's: `{cluster="prod-eu-1", team="payments"}`. A missing
 * label groups as the empty value.
 *
 * @example groupAlerts(alerts, { by: ['team'] }).map((g) => g.groupKey) // ['{team="checkout"}', '{team="payments"}']
 */
export function groupAlerts(alerts: readonly Alert[], options: GroupingOptions): AlertGroup[] {
  const groups = new Map<string, { labels: Record<string, string>; alerts: Alert[] }>();
  for (const alert of alerts) {
    const labels = Object.fromEntries(options.by.map((name) => [name, alert.labels[name] ?? '']));
    const key = silenceFilter(labels);
    const group = groups.get(key) ?? { labels, alerts: [] };
    group.alerts.push(alert);
    groups.set(key, group);
  }
  return [...groups.entries()].map(([groupKey, group]) => ({
    source: options.source ?? group.alerts[0]?.source ?? 'unknown',
    groupKey,
    status: groupStatusOf(group.alerts),
    alerts: group.alerts,
    commonLabels: commonLabelsOf(group.alerts),
    groupLabels: group.labels,
  }));
}
