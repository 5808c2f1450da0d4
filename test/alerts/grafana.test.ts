import { describe, expect, it } from 'vitest';
import { parseGrafana } from '../../src/alerts/adapters/grafana';
import { InvalidInputError } from '../../src/errors';
import { fixture } from './load-fixture';

describe('parseGrafana (unified alerting webhook contact point)', () => {
  it('maps the firing fixture to two critical firing alerts with their summaries', () => {
    const group = parseGrafana(fixture('grafana-firing.json'))[0];
    expect(group).toMatchObject({ source: 'grafana', status: 'firing', receiver: 'Intranet alerts webhook' });
    expect(group?.groupKey).toContain('grafana_folder="Checkout"');
    expect(group?.alerts.map((a) => [a.fingerprint, a.title, a.status, a.severity, a.labels.region])).toEqual([
      ['78cb7ca1352f8619', 'High p99 latency', 'firing', 'critical', 'eu-west-1'],
      ['70852939b4fdc3c5', 'High p99 latency', 'firing', 'critical', 'us-east-1'],
    ]);
    expect(group?.alerts[0]?.summary).toBe('checkout-api p99 latency is 2.31s (threshold 1.5s) in eu-west-1');
  });

  it("links runbook, dashboard, panel, rule and silence from Grafana's URLs", () => {
    const alert = parseGrafana(fixture('grafana-firing.json'))[0]?.alerts[0];
    expect(alert?.links.map((l) => l.kind)).toEqual(['runbook', 'dashboard', 'panel', 'source', 'silence']);
    expect(alert?.links.find((l) => l.kind === 'panel')?.url).toBe(
      'https://grafana.example.internal/d/chk-api-slo?from=1787214000000&orgId=1&to=1787217850417&viewPanel=4',
    );
    expect(alert?.links.find((l) => l.kind === 'silence')?.url).toContain('matcher=__alert_rule_uid__%3Dbdw3k0t9x1zpca');
    expect(alert?.links.find((l) => l.kind === 'source')?.url).toBe('https://grafana.example.internal/alerting/grafana/bdw3k0t9x1zpca/view?orgId=1');
  });

  it('prints the values and keeps the screenshot as an image', () => {
    const [first, second] = parseGrafana(fixture('grafana-firing.json'))[0]?.alerts ?? [];
    expect(first?.value).toBe('A=2.3148, B=2.3148, C=1');
    expect(first?.images).toEqual(['https://grafana.example.internal/public/img/attachments/Kq1s9dYbVYw3xJZ2fPaL.png']);
    expect(second).not.toHaveProperty('images');
  });

  it('reads the zero endsAt as unset while firing', () => {
    const alerts = parseGrafana(fixture('grafana-firing.json'))[0]?.alerts ?? [];
    expect(alerts.map((a) => [a.startedAt, a.endedAt])).toEqual([
      ['2026-08-20T09:20:00.000Z', undefined],
      ['2026-08-20T09:21:00.000Z', undefined],
    ]);
  });

  it('maps the resolved fixture to the same fingerprints with end times and below-threshold values', () => {
    const group = parseGrafana(fixture('grafana-resolved.json'))[0];
    expect(group?.status).toBe('resolved');
    expect(group?.alerts.map((a) => [a.fingerprint, a.status, a.endedAt, a.value])).toEqual([
      ['78cb7ca1352f8619', 'resolved', '2026-08-20T09:41:00.118Z', 'A=0.8421, B=0.8421, C=0'],
      ['70852939b4fdc3c5', 'resolved', '2026-08-20T09:41:00.118Z', 'A=0.6115, B=0.6115, C=0'],
    ]);
  });

  it('falls back to valueString when there are no values', () => {
    const body = fixture('grafana-firing.json');
    const raw = (body.alerts as Array<Record<string, unknown>>)[0] ?? {};
    delete raw.values;
    expect(parseGrafana(body)[0]?.alerts[0]?.value).toBe(raw.valueString);
  });

  it('rejects a body without alerts naming the field', () => {
    expect(() => parseGrafana(fixture('uptime-kuma.json'))).toThrow(InvalidInputError);
    expect(() => parseGrafana(fixture('uptime-kuma.json'))).toThrow(/body\.alerts/);
  });
});
