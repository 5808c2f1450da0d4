import { describe, expect, it } from 'vitest';
import { parseAlertmanager } from '../../src/alerts/adapters/alertmanager';
import { groupAlerts } from '../../src/alerts/grouping';
import { fixture } from './load-fixture';

const alerts = () => parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts ?? [];

describe('groupAlerts', () => {
  it('groups by label values in first-seen order with common labels', () => {
    const groups = groupAlerts(alerts(), { by: ['team'] });
    expect(groups.map((g) => [g.groupKey, g.alerts.length])).toEqual([
      ['{team="checkout"}', 1],
      ['{team="payments"}', 2],
    ]);
    expect(groups[1]?.commonLabels).toMatchObject({ alertname: 'KubePodCrashLooping', team: 'payments', severity: 'warning' });
    expect(groups[1]?.commonLabels).not.toHaveProperty('pod');
    expect(groups[1]).toMatchObject({ source: 'alertmanager', status: 'firing', groupLabels: { team: 'payments' } });
  });

  it('is resolved only when every alert of the group is', () => {
    const mixed = alerts();
    mixed[1] = { ...mixed[1]!, status: 'resolved' };
    const payments = groupAlerts(mixed, { by: ['team'] })[1];
    expect(payments?.status).toBe('firing');
    mixed[2] = { ...mixed[2]!, status: 'resolved' };
    expect(groupAlerts(mixed, { by: ['team'] })[1]?.status).toBe('resolved');
  });

  it('puts every alert in one group when grouping by nothing', () => {
    const groups = groupAlerts(alerts(), { by: [] });
    expect(groups).toHaveLength(1);
    expect(groups[0]?.groupKey).toBe('{}');
    expect(groups[0]?.commonLabels).toEqual({ cluster: 'prod-eu-1', prometheus: 'monitoring/k8s' });
  });
});
