import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/** One sample body a monitoring source sends, as its documentation shows it (docs/alert-samples/). */
export interface AlertSample {
  /** What it shows: `firing`, `resolved`. */
  state: 'firing' | 'resolved';
  file: string;
}

/**
 * The samples of each source, by source: the input's `format`, or for `generic` the name of its
 * mapping preset. The files are the test fixtures' own copies (a test keeps them equal). Amazon SNS
 * (signed by AWS with its certificates) and Zabbix (whose media type's script builds the body) have none.
 */
export const ALERT_SAMPLES: Readonly<Record<string, readonly AlertSample[]>> = {
  alertmanager: [
    { state: 'firing', file: 'alertmanager-firing.json' },
    { state: 'resolved', file: 'alertmanager-resolved.json' },
  ],
  grafana: [
    { state: 'firing', file: 'grafana-firing.json' },
    { state: 'resolved', file: 'grafana-resolved.json' },
  ],
  slack: [{ state: 'firing', file: 'slack-compatible-text.json' }],
  // Datadog's recommended payload (the `datadog` preset) has only a recovery among the fixtures; its default one has both
  datadog: [{ state: 'resolved', file: 'datadog-recommended.json' }],
  'datadog-default': [
    { state: 'firing', file: 'datadog.json' },
    { state: 'resolved', file: 'datadog-recovered.json' },
  ],
  sentry: [{ state: 'firing', file: 'sentry-issue.json' }],
  'uptime-kuma': [
    { state: 'firing', file: 'uptime-kuma.json' },
    { state: 'resolved', file: 'uptime-kuma-up.json' },
  ],
  'azure-monitor': [
    { state: 'firing', file: 'azure-monitor-fired.json' },
    { state: 'resolved', file: 'azure-monitor-resolved.json' },
  ],
  'gcp-monitoring': [
    { state: 'firing', file: 'gcp-monitoring-open.json' },
    { state: 'resolved', file: 'gcp-monitoring-closed.json' },
  ],
  'formatted-webhook': [
    { state: 'firing', file: 'formatted-webhook-alerting.json' },
    { state: 'resolved', file: 'formatted-webhook-ok.json' },
  ],
  github: [
    { state: 'firing', file: 'github-workflow-run-failure.json' },
    { state: 'resolved', file: 'github-workflow-run-success.json' },
  ],
  gitlab: [
    { state: 'firing', file: 'gitlab-pipeline-failed.json' },
    { state: 'resolved', file: 'gitlab-pipeline-success.json' },
  ],
  jenkins: [
    { state: 'firing', file: 'jenkins-finalized-failure.json' },
    { state: 'resolved', file: 'jenkins-finalized-success.json' },
  ],
  healthchecks: [
    { state: 'firing', file: 'healthchecks-down.json' },
    { state: 'resolved', file: 'healthchecks-up.json' },
  ],
  newrelic: [
    { state: 'firing', file: 'newrelic-activated.json' },
    { state: 'resolved', file: 'newrelic-closed.json' },
  ],
  kibana: [
    { state: 'firing', file: 'kibana-active.json' },
    { state: 'resolved', file: 'kibana-recovered.json' },
  ],
};

/** Where the sample files are: docs/alert-samples/ of the package (shipped with its docs). */
export const ALERT_SAMPLES_DIR = join(PACKAGE_ROOT, 'docs', 'alert-samples');

/**
 * The source an input's samples are kept under: its format, or its preset's name for `generic`
 * (`options.mapping: uptime-kuma`); undefined for a generic input with a mapping of its own.
 *
 * @example sampleSource('generic', { mapping: 'uptime-kuma' }) // 'uptime-kuma'
 */
export function sampleSource(format: string, options: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (format !== 'generic') return format;
  return typeof options?.mapping === 'string' ? options.mapping : undefined;
}

/** The body of a sample, as sent; undefined when the package has no such file. */
export function readAlertSample(sample: AlertSample, dir = ALERT_SAMPLES_DIR): string | undefined {
  const path = join(dir, sample.file);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}
