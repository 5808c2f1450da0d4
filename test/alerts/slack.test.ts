import { describe, expect, it } from 'vitest';
import { parseSlack } from '../../src/alerts/adapters/slack';
import { InvalidInputError } from '../../src/errors';
import { fixture } from './load-fixture';

const only = (body: unknown) => {
  const groups = parseSlack(body);
  expect(groups).toHaveLength(1);
  expect(groups[0]?.alerts).toHaveLength(1);
  const alert = groups[0]?.alerts[0];
  if (!alert) throw new Error('no alert');
  return alert;
};

describe('parseSlack (Slack-compatible {text, attachments, blocks})', () => {
  it('maps a Zabbix {text} message: first line as title, PROBLEM as firing, the Severity line as severity', () => {
    const alert = only(fixture('slack-compatible-text.json'));
    expect(alert.source).toBe('slack');
    expect(alert.status).toBe('firing');
    expect(alert.title).toBe('PROBLEM: High CPU utilization (over 90% for 5m) on db-02 @here');
    expect(alert.severity).toBe('error');
    expect(alert.severityRaw).toBe('High');
    expect(alert.summary).toBe('Severity: High · Started: 2026-08-20 09:35:11 UTC · Duration: 4m');
  });

  it('turns mrkdwn into plain text: links, entities, mentions, emphasis and code fences', () => {
    const alert = only(fixture('slack-compatible-text.json'));
    expect(alert.description).toContain('Host: db-02 (https://zabbix.example.internal/zabbix.php?action=host.view&filter_host=db-02)');
    expect(alert.description).toContain('Operational data: cpu.util = 93.4 % (threshold > 90 %)');
    expect(alert.description).toContain('Previous event #982207 resolved · cc @U024BE7LH @db-oncall');
    expect(alert.description).toContain('top -b -n1 | head -3\n  PID USER  %CPU COMMAND');
    expect(alert.description).not.toMatch(/[<>]!|&amp;|```/);
    expect(alert.links.map((l) => [l.title, l.url])).toEqual([
      ['db-02', 'https://zabbix.example.internal/zabbix.php?action=host.view&filter_host=db-02'],
      ['#982341', 'https://zabbix.example.internal/tr_events.php?triggerid=23411&eventid=982341'],
    ]);
  });

  it('maps a Block Kit message: header as title, fallback text as summary, fields as labels', () => {
    const alert = only(fixture('slack-compatible-blocks.json'));
    expect(alert.title).toBe('🔴 Intranet SSO is down');
    expect(alert.summary).toBe('Intranet SSO is DOWN: request failed with status code 503');
    expect(alert.status).toBe('firing');
    expect(alert.severity).toBe('critical');
    expect(alert.labels).toMatchObject({ severity: 'Critical', environment: 'production', owner: '@identity-oncall' });
    expect(alert.description).toContain('Started: 2026-08-20 09:33 UTC');
    expect(alert.description).toContain('Affected: login, token refresh, SCIM sync');
  });

  it('turns buttons into links and image blocks into images', () => {
    const alert = only(fixture('slack-compatible-blocks.json'));
    expect(alert.links).toEqual(
      expect.arrayContaining([
        { title: 'Acknowledge', url: 'https://oncall.example.internal/incidents/4812/ack', kind: 'action' },
        { title: 'Silence 1h', url: 'https://alertmanager.example.internal/#/silences/new?filter=%7Bservice%3D%22sso%22%7D', kind: 'silence' },
        { title: 'SSO outage', url: 'https://wiki.example.internal/runbooks/sso', kind: 'link' },
      ]),
    );
    expect(alert.images).toContain('https://grafana.example.internal/render/d-solo/sso/sso?orgId=1&panelId=2&width=1000&height=500');
  });

  it("maps Alertmanager's slack_config attachment: title, FIRING, the most severe severity, buttons", () => {
    const alert = only(fixture('slack-compatible-alertmanager.json'));
    expect(alert.title).toBe('[FIRING:3] prod-eu-1 (monitoring/k8s)');
    expect(alert.status).toBe('firing');
    expect(alert.severity).toBe('critical');
    expect(alert.summary).toBe('Alert: checkout-gateway 5xx ratio above 5% for 5 minutes - critical');
    expect(alert.links.map((l) => [l.kind, l.title])).toEqual([
      ['runbook', 'Runbook'],
      ['source', '[FIRING:3] prod-eu-1 (monitoring/k8s)'],
      ['silence', 'Silence'],
    ]);
  });

  it('reads RESOLVED in the title as resolved and keeps the fingerprint of the firing message', () => {
    const firing = only(fixture('slack-compatible-alertmanager.json'));
    const body = fixture('slack-compatible-alertmanager.json');
    const attachment = (body.attachments as Array<Record<string, unknown>>)[0] ?? {};
    attachment.title = '[RESOLVED] prod-eu-1 (monitoring/k8s)';
    attachment.color = 'good';
    const resolved = only(body);
    expect(resolved.status).toBe('resolved');
    expect(resolved.fingerprint).toBe(firing.fingerprint);
  });

  it('guesses the status from the colour bar when the words say nothing', () => {
    const green = only({ attachments: [{ color: '#2eb886', title: 'Disk usage on db-02', text: 'at 40%' }] });
    const red = only({ attachments: [{ color: '#E01E5A', title: 'Disk usage on db-02', text: 'at 97%' }] });
    expect([green.status, red.status]).toEqual(['resolved', 'firing']);
    expect(red.severity).toBe('error');
    expect(green.fingerprint).toBe(red.fingerprint);
  });

  it('gives different titles different fingerprints', () => {
    expect(only({ text: 'Disk full on db-01' }).fingerprint).not.toBe(only({ text: 'Disk full on db-02' }).fingerprint);
  });

  it('rejects a body with no text, attachments or blocks, naming text', () => {
    expect(() => parseSlack({ username: 'x' })).toThrow(InvalidInputError);
    expect(() => parseSlack({ username: 'x' })).toThrow(/body\.text/);
    expect(() => parseSlack({ text: 42 })).toThrow(/body\.text/);
  });
});
