import { describe, expect, it } from 'vitest';
import { parseAlertmanager, silenceFilter } from '../../src/alerts/adapters/alertmanager';
import { InvalidInputError } from '../../src/errors';
import { fixture } from './load-fixture';

describe('parseAlertmanager (webhook_config version 4)', () => {
  it('maps the firing fixture to one group of three firing alerts with their fixture values', () => {
    const [group, ...others] = parseAlertmanager(fixture('alertmanager-firing.json'));
    expect(others).toHaveLength(0);
    expect(group).toMatchObject({
      source: 'alertmanager',
      groupKey: '{}/{team=~"payments|checkout"}:{cluster="prod-eu-1"}',
      status: 'firing',
      commonLabels: { cluster: 'prod-eu-1', prometheus: 'monitoring/k8s' },
      groupLabels: { cluster: 'prod-eu-1' },
      externalUrl: 'https://alertmanager.example.internal',
      receiver: 'intranet-prod-alerts',
      truncatedAlerts: 0,
    });
    expect(group?.alerts.map((a) => [a.fingerprint, a.title, a.status, a.severity])).toEqual([
      ['5bb08dc1260ca0dd', 'HighHTTPErrorRate', 'firing', 'critical'],
      ['5692f796e9a8018c', 'KubePodCrashLooping', 'firing', 'warning'],
      ['492fa31fd984e94b', 'KubePodCrashLooping', 'firing', 'warning'],
    ]);
  });

  it('takes the summary and description from the annotations and keeps the labels', () => {
    const alert = parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts[0];
    expect(alert?.summary).toBe('checkout-gateway 5xx ratio above 5% for 5 minutes');
    expect(alert?.description).toContain('Top route: POST /v2/orders (503 upstream_unavailable).');
    expect(alert?.labels).toMatchObject({ team: 'checkout', service: 'checkout-gateway', severity: 'critical' });
    expect(alert?.severityRaw).toBe('critical');
    expect(alert?.startedAt).toBe('2026-08-20T09:06:21.842Z');
  });

  it('reads the zero endsAt of a firing alert as unset', () => {
    const alerts = parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts ?? [];
    expect(alerts).toHaveLength(3);
    for (const alert of alerts) expect(alert).not.toHaveProperty('endedAt');
  });

  it('links runbook, dashboard, generator and a silence built from the labels on externalURL', () => {
    const alert = parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts[0];
    expect(alert?.links.map((l) => [l.kind, l.title])).toEqual([
      ['runbook', 'Runbook'],
      ['dashboard', 'Dashboard'],
      ['source', 'Source'],
      ['silence', 'Silence'],
    ]);
    expect(alert?.links[0]?.url).toBe('https://wiki.example.internal/runbooks/checkout/high-error-rate');
    expect(alert?.links[1]?.url).toBe('https://grafana.example.internal/d/chk-gw/checkout-gateway?var-cluster=prod-eu-1');
    expect(alert?.links[2]?.url).toMatch(/^http:\/\/prometheus-k8s-0\.monitoring\.svc:9090\/graph\?g0\.expr=/);
    const silence = new URL(alert?.links[3]?.url ?? '');
    expect(silence.origin).toBe('https://alertmanager.example.internal');
    expect(decodeURIComponent(silence.hash)).toContain('alertname="HighHTTPErrorRate", cluster="prod-eu-1"');
  });

  it('maps the resolved fixture to the same fingerprints, resolved, with their real end times', () => {
    const group = parseAlertmanager(fixture('alertmanager-resolved.json'))[0];
    expect(group?.status).toBe('resolved');
    expect(group?.alerts.map((a) => [a.fingerprint, a.status, a.endedAt])).toEqual([
      ['5bb08dc1260ca0dd', 'resolved', '2026-08-20T09:21:34.842Z'],
      ['5692f796e9a8018c', 'resolved', '2026-08-20T09:34:01.842Z'],
      ['492fa31fd984e94b', 'resolved', '2026-08-20T09:34:01.842Z'],
    ]);
  });

  it('maps all 200 alerts of the storm, 15 of them resolved', () => {
    const group = parseAlertmanager(fixture('alertmanager-storm.json'))[0];
    expect(group?.alerts).toHaveLength(200);
    expect(group?.alerts.filter((a) => a.status === 'resolved')).toHaveLength(15);
    expect(new Set(group?.alerts.map((a) => a.fingerprint)).size).toBe(200);
    expect(group?.alerts.filter((a) => a.title === 'KubePodNotReady')).toHaveLength(120);
  });

  it('recomputes the Prometheus fingerprint when an older Alertmanager sends none', () => {
    const body = fixture('alertmanager-firing.json');
    const alerts = body.alerts as Array<Record<string, unknown>>;
    for (const alert of alerts) delete alert.fingerprint;
    delete body.truncatedAlerts;
    delete body.notification_reason;
    const group = parseAlertmanager(body)[0];
    // README: fixture fingerprints are the real label-set fingerprints
    expect(group?.alerts.map((a) => a.fingerprint)).toEqual(['5bb08dc1260ca0dd', '5692f796e9a8018c', '492fa31fd984e94b']);
    expect(group).not.toHaveProperty('truncatedAlerts');
  });

  it('rejects a Slack body naming the missing alerts field', () => {
    const error = catchError(() => parseAlertmanager(fixture('slack-compatible-text.json')));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('body.alerts');
    expect((error as InvalidInputError).code).toBe('invalid_input');
  });

  it('rejects a Grafana body naming its version', () => {
    const error = catchError(() => parseAlertmanager(fixture('grafana-firing.json')));
    expect((error as InvalidInputError).field).toBe('body.version');
  });

  it('rejects an alert without labels naming the alert and field', () => {
    const body = fixture('alertmanager-firing.json');
    delete (body.alerts as Array<Record<string, unknown>>)[1]?.labels;
    const error = catchError(() => parseAlertmanager(body));
    expect((error as InvalidInputError).field).toBe('body.alerts.1.labels');
  });

  it('writes silence filters with sorted, quoted matchers', () => {
    expect(silenceFilter({ severity: 'warning', job: 'a"b' })).toBe('{job="a\\"b", severity="warning"}');
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
