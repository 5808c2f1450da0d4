import { describe, expect, it } from 'vitest';
import { parseAlerts } from '../../src/alerts/adapters';
import { ownFixture } from './load-fixture';

/** The one alert a source's body carries, read by `format` (with `mapping` for a preset of `generic`). */
function alertOf(file: string, format: string, mapping?: string) {
  const groups = parseAlerts(format, ownFixture(file), mapping === undefined ? {} : { mapping });
  expect(groups.flatMap((g) => g.alerts)).toHaveLength(1);
  return groups[0]!.alerts[0]!;
}

describe('alert sources written from their documentation (firing, then resolved as the same alert)', () => {
  it('azure-monitor: monitorCondition Fired fires and Resolved resolves the same alert instance, Sev1 is critical, custom properties are labels', () => {
    const fired = alertOf('azure-monitor-fired.json', 'azure-monitor');
    const resolved = alertOf('azure-monitor-resolved.json', 'azure-monitor');
    expect(fired).toMatchObject({
      source: 'azure-monitor',
      status: 'firing',
      title: 'intranet-db CPU over 85%',
      summary: 'CPU of the intranet database stayed above 85% for 5 minutes',
      severity: 'critical',
      startedAt: '2026-08-20T09:31:04.221Z',
    });
    expect(fired.labels).toMatchObject({ team: 'intranet', runbook: 'db-cpu', signal: 'Metric', resource: 'intranet-db' });
    expect(fired.links[0]?.url).toMatch(/^https:\/\/portal\.azure\.com\/#@\/resource\/subscriptions\/.*\/flexibleservers\/intranet-db$/);
    expect(resolved).toMatchObject({ status: 'resolved', fingerprint: fired.fingerprint, endedAt: '2026-08-20T09:46:11.041Z' });
  });

  it('gcp-monitoring: incident.state open fires and closed resolves, epoch seconds read as times, the documentation is the description', () => {
    const open = alertOf('gcp-monitoring-open.json', 'gcp-monitoring');
    const closed = alertOf('gcp-monitoring-closed.json', 'gcp-monitoring');
    expect(open).toMatchObject({
      source: 'gcp-monitoring',
      status: 'firing',
      title: 'intranet-web p99 latency',
      severity: 'critical',
      fingerprint: 'gcp-0.nq8w2rp1x3k7',
      startedAt: '2026-08-20T09:30:00.000Z',
      description: 'The intranet front end answers slowly. Check the last deploy and the database first.',
    });
    expect(open.labels).toMatchObject({ service_name: 'intranet-web', location: 'europe-west3', metric: 'Request Latencies', project: 'intranet-prod' });
    expect(open.links[0]).toMatchObject({ title: 'Incident', kind: 'source' });
    expect(closed).toMatchObject({ status: 'resolved', fingerprint: 'gcp-0.nq8w2rp1x3k7', endedAt: '2026-08-20T09:45:00.000Z' });
  });

  it('formatted-webhook: state alerting fires and ok resolves by alert_uid, with its image and its upstream link', () => {
    const alerting = alertOf('formatted-webhook-alerting.json', 'formatted-webhook');
    const ok = alertOf('formatted-webhook-ok.json', 'formatted-webhook');
    expect(alerting).toMatchObject({
      source: 'formatted-webhook',
      status: 'firing',
      title: 'Free disk space is less than 10% on volume /var',
      fingerprint: 'formatted-zabbix-event-481207',
      images: ['https://zabbix.example.internal/chart.php?itemids=48210&period=3600'],
    });
    expect(alerting.links[0]?.url).toBe('https://zabbix.example.internal/tr_events.php?triggerid=28741&eventid=481207');
    expect(ok).toMatchObject({ status: 'resolved', fingerprint: alerting.fingerprint });
  });

  it('healthchecks (generic preset): status down fires and up resolves the same check, named even with a quote in its name', () => {
    const down = alertOf('healthchecks-down.json', 'generic', 'healthchecks');
    const up = alertOf('healthchecks-up.json', 'generic', 'healthchecks');
    expect(down).toMatchObject({
      source: 'healthchecks',
      status: 'firing',
      title: 'Nightly "intranet" backup',
      fingerprint: 'healthchecks-7d3c2b1a-4e5f-4a6b-8c9d-0e1f2a3b4c5d',
    });
    expect(down.labels).toMatchObject({ check: 'nightly-intranet-backup', tags: 'backup prod' });
    expect(up).toMatchObject({ status: 'resolved', fingerprint: down.fingerprint, endedAt: '2026-08-20T03:42:18.000Z' });
  });

  it('newrelic (generic preset): an ACTIVATED issue fires and CLOSED resolves it, priority CRITICAL is critical, the issue page is linked', () => {
    const activated = alertOf('newrelic-activated.json', 'generic', 'newrelic');
    const closed = alertOf('newrelic-closed.json', 'generic', 'newrelic');
    expect(activated).toMatchObject({
      source: 'newrelic',
      status: 'firing',
      title: "Error rate > 5% for at least 5 minutes on 'intranet-api'",
      severity: 'critical',
      fingerprint: 'newrelic-3e1f5a2b-7c4d-4e8f-9a0b-1c2d3e4f5a6b',
      startedAt: '2026-08-20T09:31:00.000Z',
    });
    expect(activated.labels).toMatchObject({ policy: 'Intranet golden signals', condition: 'intranet-api error rate', entity: 'intranet-api' });
    expect(activated.links[0]).toMatchObject({ title: 'New Relic issue', kind: 'source' });
    expect(closed).toMatchObject({ status: 'resolved', fingerprint: activated.fingerprint, endedAt: '2026-08-20T09:50:00.000Z' });
  });

  it('kibana (generic preset): an active group fires and the recovered action group resolves the same rule and alert', () => {
    const active = alertOf('kibana-active.json', 'generic', 'kibana');
    const recovered = alertOf('kibana-recovered.json', 'generic', 'kibana');
    expect(active).toMatchObject({ source: 'kibana', status: 'firing', title: "rule 'Login failures spike' matched query" });
    expect(active.summary).toContain('Value: 214');
    expect(active.labels).toMatchObject({ rule: 'Login failures spike', tags: 'security,sso' });
    expect(recovered).toMatchObject({ status: 'resolved', fingerprint: active.fingerprint, endedAt: '2026-08-20T09:52:00.118Z' });
  });
});
