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

/**
 * GitHub's `workflow_run` and `check_suite` webhook events: only `action: completed` is news; a run's
 * conclusion `success` (or `neutral`, `skipped`) resolves what a failed run of the same workflow on the
 * same branch reported. Senders are checked by `X-Hub-Signature-256` (`signing: { secret }`).
 */
const github: GenericMappingInput = {
  source: 'github',
  only: { value: '{{action}}', in: ['completed'] },
  title: '{{repository.full_name}}: {{workflow_run.name || check_suite.app.name}} on {{workflow_run.head_branch || check_suite.head_branch}}',
  summary: '{{workflow_run.conclusion || check_suite.conclusion}}: {{workflow_run.display_title || check_suite.head_commit.message}}',
  status: { value: '{{workflow_run.conclusion || check_suite.conclusion}}', resolved: ['success', 'neutral', 'skipped'] },
  fingerprint: 'github-{{repository.full_name}}-{{workflow_run.workflow_id || check_suite.app.slug}}-{{workflow_run.head_branch || check_suite.head_branch}}',
  groupKey: '{{repository.full_name}}',
  startedAt: '{{workflow_run.run_started_at || check_suite.created_at}}',
  endedAt: '{{workflow_run.updated_at || check_suite.updated_at}}',
  labels: {
    repository: '{{repository.full_name}}',
    branch: '{{workflow_run.head_branch || check_suite.head_branch}}',
    event: '{{workflow_run.event}}',
    actor: '{{workflow_run.triggering_actor.login || sender.login}}',
  },
  links: [
    { title: 'Run', url: '{{workflow_run.html_url}}', kind: 'source' },
    { title: 'Repository', url: '{{repository.html_url}}', kind: 'link' },
  ],
};

/**
 * GitLab's pipeline events: a pipeline that has finished (`success`, `failed`, `canceled`) is news; a
 * successful pipeline of the same project and ref resolves what a failed one reported. Senders are
 * checked by `X-Gitlab-Token` or by the newer signed webhooks (`webhook-signature`), `signing: { secret }`.
 */
const gitlab: GenericMappingInput = {
  source: 'gitlab',
  only: { value: '{{object_kind}}:{{object_attributes.status}}', in: ['~^pipeline:(success|failed|canceled)$'] },
  title: '{{project.path_with_namespace}}: pipeline on {{object_attributes.ref}}',
  summary: '{{object_attributes.status}}: {{commit.title || commit.message}}',
  status: { value: '{{object_attributes.status}}', resolved: ['success'] },
  fingerprint: 'gitlab-{{project.id}}-{{object_attributes.ref}}',
  groupKey: '{{project.path_with_namespace}}',
  startedAt: '{{object_attributes.created_at}}',
  endedAt: '{{object_attributes.finished_at}}',
  labels: {
    project: '{{project.path_with_namespace}}',
    ref: '{{object_attributes.ref}}',
    source: '{{object_attributes.source}}',
    user: '{{user.username}}',
  },
  links: [{ title: 'Pipeline', url: '{{object_attributes.url || project.web_url}}', kind: 'source' }],
};

/**
 * Jenkins' Notification plugin: it notifies every phase (QUEUED, STARTED, COMPLETED, FINALIZED); only
 * FINALIZED is posted, so a build is reported once. `SUCCESS` resolves the job's last failure. The
 * plugin sends no headers of your choosing: `auth: { query_token }`.
 */
const jenkins: GenericMappingInput = {
  source: 'jenkins',
  only: { value: '{{build.phase}}', in: ['FINALIZED'] },
  title: '{{name}}',
  summary: 'build #{{build.number}} {{build.status}}',
  status: { value: '{{build.status}}', resolved: ['SUCCESS'] },
  fingerprint: 'jenkins-{{name}}',
  labels: { branch: '{{build.scm.branch}}', commit: '{{build.scm.commit}}' },
  links: [{ title: 'Build', url: '{{build.full_url}}', kind: 'source' }],
};

/**
 * What intrabot's Zabbix media type (templates/zabbix/media_intrabot.yaml) sends: each value a Zabbix
 * macro the media type's parameters pass, `status` worked out by its script from `{EVENT.VALUE}` and
 * `{EVENT.UPDATE.STATUS}`: `problem`, `update` (acknowledged, commented, severity changed: the problem
 * still fires) or `recovery`. One alert per problem event, resolved by its recovery.
 */
const zabbix: GenericMappingInput = {
  source: 'zabbix',
  title: '{{trigger || subject}}',
  summary: '{{message}}',
  severity: '{{severity}}',
  status: { value: '{{status}}', resolved: ['recovery'] },
  fingerprint: 'zabbix-{{event_id}}',
  groupKey: '{{host}}',
  labelsFrom: ['tags'],
  labels: { host: '{{host}}', opdata: '{{opdata}}' },
  links: [{ title: 'Problem in Zabbix', url: '{{url}}', kind: 'source' }],
};

/** The presets of named sources; all but `healthchecks`, `newrelic` and `kibana` are formats of their own too (`ALERT_FORMATS`). */
export const SOURCE_PRESETS = {
  'azure-monitor': azureMonitor,
  'gcp-monitoring': gcpMonitoring,
  'formatted-webhook': formattedWebhook,
  github,
  gitlab,
  jenkins,
  zabbix,
  healthchecks,
  newrelic,
  kibana,
} as const satisfies Record<string, GenericMappingInput>;
