import type { GenericMappingInput } from './generic-mapping';
import { SOURCE_PRESETS } from './source-presets';

/**
 * Datadog with the custom payload we recommend configuring (every field a documented `$VARIABLE`):
 * `{"title":"$EVENT_TITLE","text_only_msg":"$TEXT_ONLY_MSG","alert_id":"$ALERT_ID",
 * "alert_cycle_key":"$ALERT_CYCLE_KEY","aggreg_key":"$AGGREG_KEY","alert_transition":"$ALERT_TRANSITION",
 * "alert_priority":"$ALERT_PRIORITY","alert_status":"$ALERT_STATUS","alert_scope":"$ALERT_SCOPE",
 * "alert_metric":"$ALERT_METRIC","hostname":"$HOSTNAME","tags":"$TAGS","link":"$LINK",
 * "snapshot":"$SNAPSHOT","date":"$DATE","last_updated":"$LAST_UPDATED", ...}`.
 * The cycle key ties a recovery to its trigger. No start time: `$DATE` of a renotification is
 * its own time, which would read as a new incident.
 */
const datadog: GenericMappingInput = {
  source: 'datadog',
  title: '{{title}}',
  summary: '{{text_only_msg || alert_status}}',
  description: '{{alert_status}}',
  severity: '{{alert_priority || alert_type}}',
  status: { value: '{{alert_transition}}', resolved: ['Recovered'] },
  fingerprint: 'datadog-{{alert_cycle_key || alert_id}}',
  groupKey: '{{aggreg_key}}',
  endedAt: '{{last_updated || date}}',
  labelsFrom: ['tags'],
  labels: { monitor_id: '{{alert_id}}', metric: '{{alert_metric}}', host: '{{hostname}}', scope: '{{alert_scope}}' },
  links: [{ title: 'Datadog event', url: '{{link}}', kind: 'source' }],
  images: ['{{snapshot}}'],
};

/**
 * Datadog's default webhook payload: only the title tells the transition (`[Triggered on …]`,
 * `[Recovered on …]`), and the body is Datadog markdown. Works, but the recommended payload
 * above gives a cleaner summary, a priority and a link.
 */
const datadogDefault: GenericMappingInput = {
  source: 'datadog',
  title: '{{title}}',
  description: '{{body}}',
  status: { value: '{{title}}', resolved: ['~^\\[(Recovered|OK)\\b'] },
  endedAt: '{{last_updated || date}}',
  labels: { event_type: '{{event_type}}', org: '{{org.name}}' },
};

/** Sentry's issue-alert webhook (`Sentry-Hook-Resource: event_alert`); it has no resolved event. */
const sentry: GenericMappingInput = {
  source: 'sentry',
  title: '{{data.event.title || data.issue_alert.title}}',
  summary: '{{data.event.culprit}}',
  description: '{{data.triggered_rule}}',
  severity: '{{data.event.level}}',
  status: { value: '{{action}}', resolved: ['resolved'] },
  fingerprint: 'sentry-{{data.event.issue_id}}',
  groupKey: '{{data.triggered_rule}}',
  startedAt: '{{data.event.datetime}}',
  labelsFrom: ['data.event.tags'],
  labels: { rule: '{{data.triggered_rule}}', project: '{{data.event.project}}' },
  links: [{ title: 'Sentry issue', url: '{{data.event.web_url}}', kind: 'source' }],
};

/**
 * Uptime Kuma's webhook notification (`{heartbeat, monitor, msg}`): status 0 DOWN and 2 PENDING
 * fire, 1 UP and 3 MAINTENANCE resolve. No start time: a re-sent DOWN carries a later heartbeat.
 */
const uptimeKuma: GenericMappingInput = {
  source: 'uptime-kuma',
  title: '{{monitor.name}}',
  summary: '{{heartbeat.msg || msg}}',
  description: '{{msg}}',
  status: { value: '{{heartbeat.status}}', resolved: ['1', '3'] },
  fingerprint: 'uptime-kuma-{{monitor.id || heartbeat.monitorID}}',
  endedAt: '{{heartbeat.time}}',
  labelsFrom: ['monitor.tags'],
  labels: { monitor_type: '{{monitor.type}}', path: '{{monitor.pathName}}' },
  links: [{ title: 'Monitored URL', url: '{{monitor.url}}', kind: 'link' }],
};

/** Ready-made mappings for the `generic` format, by name (`mapping: uptime-kuma` in bot.yaml). */
export const GENERIC_PRESETS = {
  datadog,
  'datadog-default': datadogDefault,
  sentry,
  'uptime-kuma': uptimeKuma,
  ...SOURCE_PRESETS,
} as const satisfies Record<string, GenericMappingInput>;

export type GenericPresetName = keyof typeof GENERIC_PRESETS;
