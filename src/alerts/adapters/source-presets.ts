import type { GenericMappingInput } from './generic-mapping';

/**
 * Azure Monitor's common alert schema (`schemaId: azureMonitorCommonAlertSchema`), which an action
 * group's webhook sends when "Enable the common alert schema" is on. `data.essentials` is the same for
 * metric, log and activity-log alerts; `monitorCondition` is `Fired` or `Resolved`, and `alertId`
 * names the alert instance both notifications are about. Action groups cannot send headers: the input
 * takes its token in the URL (`auth: { query_token }`).
 */
const azureMonitor: GenericMappingInput = {
  source: 'azure-monitor',
  title: '{{data.essentials.alertRule}}',
  summary: '{{data.essentials.description}}',
  severity: '{{data.essentials.severity}}',
  status: { value: '{{data.essentials.monitorCondition}}', resolved: ['Resolved'] },
  fingerprint: 'azure-{{data.essentials.alertId}}',
  groupKey: '{{data.essentials.alertRule}}',
  startedAt: '{{data.essentials.firedDateTime}}',
  endedAt: '{{data.essentials.resolvedDateTime}}',
  labelsFrom: ['data.customProperties'],
  labels: {
    signal: '{{data.essentials.signalType}}',
    service: '{{data.essentials.monitoringService}}',
    resource: '{{data.essentials.configurationItems.0}}',
  },
  links: [{ title: 'Affected resource', url: 'https://portal.azure.com/#@/resource{{data.essentials.alertTargetIDs.0}}', kind: 'source' }],
};

/**
 * Google Cloud Monitoring's webhook notification channel, payload version 1.2: one incident per body,
 * `incident.state` `open` or `closed`, times in epoch seconds, the policy's documentation as markdown.
 */
const gcpMonitoring: GenericMappingInput = {
  source: 'gcp-monitoring',
  title: '{{incident.policy_name || incident.condition_name}}',
  summary: '{{incident.summary}}',
  description: '{{incident.documentation.content}}',
  severity: '{{incident.severity}}',
  status: { value: '{{incident.state}}', resolved: ['closed'] },
  fingerprint: 'gcp-{{incident.incident_id}}',
  groupKey: '{{incident.policy_name}}',
  startedAt: '{{incident.started_at}}',
  endedAt: '{{incident.ended_at}}',
  labelsFrom: ['incident.resource.labels'],
  labels: {
    resource: '{{incident.resource_name}}',
    condition: '{{incident.condition_name}}',
    metric: '{{incident.metric.displayName}}',
    project: '{{incident.scoping_project_id}}',
  },
  links: [{ title: 'Incident', url: '{{incident.url}}', kind: 'source' }],
};

/**
 * The "formatted webhook" Grafana OnCall defined and tools such as Zabbix and LibreNMS can send:
 * `{alert_uid, title, message, image_url, state: alerting|ok, link_to_upstream_details}`, none required.
 */
const formattedWebhook: GenericMappingInput = {
  source: 'formatted-webhook',
  title: '{{title || alert_uid}}',
  summary: '{{message}}',
  status: { value: '{{state}}', resolved: ['ok'] },
  fingerprint: 'formatted-{{alert_uid || title}}',
  links: [{ title: 'Details', url: '{{link_to_upstream_details}}', kind: 'source' }],
  images: ['{{image_url}}'],
};

/**
 * Healthchecks.io's webhook integration with the body we recommend (each value a documented
 * placeholder): `{"name": $NAME_JSON, "slug": "$SLUG", "code": "$CODE", "status": "$STATUS",
 * "now": "$NOW", "tags": "$TAGS"}`; `status` is `down` or `up`, `code` the check's UUID.
 */
const healthchecks: GenericMappingInput = {
  source: 'healthchecks',
  title: '{{name || slug || code}}',
  summary: 'check {{status}}',
  status: { value: '{{status}}', resolved: ['up'] },
  fingerprint: 'healthchecks-{{code || slug}}',
  endedAt: '{{now}}',
  labels: { check: '{{slug}}', tags: '{{tags}}' },
};

/**
 * New Relic's workflow webhook with its default payload template: `state` is the issue's
 * (`CREATED`, `ACTIVATED`, `CLOSED`), `priority` `CRITICAL`..`LOW`, times in epoch milliseconds.
 */
const newrelic: GenericMappingInput = {
  source: 'newrelic',
  title: '{{title}}',
  summary: '{{alertConditionNames.0}}',
  severity: '{{priority}}',
  status: { value: '{{state}}', resolved: ['CLOSED'] },
  fingerprint: 'newrelic-{{id}}',
  groupKey: '{{alertPolicyNames.0}}',
  startedAt: '{{createdAt}}',
  endedAt: '{{updatedAt}}',
  labels: {
    policy: '{{alertPolicyNames.0}}',
    condition: '{{alertConditionNames.0}}',
    entity: '{{impactedEntities.0}}',
    trigger: '{{trigger}}',
  },
  links: [{ title: 'New Relic issue', url: '{{issueUrl}}', kind: 'source' }],
};

/**
 * Kibana's webhook connector with the body we recommend, the same for a rule's action on its active
 * group and on `Recovered` (each value a documented action variable): `{"rule_id": "{{rule.id}}",
 * "rule": "{{rule.name}}", "alert_id": "{{alert.id}}", "action_group": "{{alert.actionGroup}}",
 * "title": "{{context.title}}", "message": "{{context.message}}", "url": "{{rule.url}}",
 * "date": "{{date}}", "tags": "{{rule.tags}}"}`.
 */
const kibana: GenericMappingInput = {
  source: 'kibana',
  title: '{{title || rule}}',
  summary: '{{message}}',
  status: { value: '{{action_group}}', resolved: ['recovered'] },
  fingerprint: 'kibana-{{rule_id}}-{{alert_id}}',
  groupKey: '{{rule}}',
  endedAt: '{{date}}',
  labels: { rule: '{{rule}}', tags: '{{tags}}' },
  links: [{ title: 'Kibana rule', url: '{{url}}', kind: 'source' }],
};

/** The presets of named sources; `azure-monitor`, `gcp-monitoring` and `formatted-webhook` are formats of their own too. */
export const SOURCE_PRESETS = {
  'azure-monitor': azureMonitor,
  'gcp-monitoring': gcpMonitoring,
  'formatted-webhook': formattedWebhook,
  healthchecks,
  newrelic,
  kibana,
} as const satisfies Record<string, GenericMappingInput>;
