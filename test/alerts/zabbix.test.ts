import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAlerts } from '../../src/alerts/adapters';
import { runZabbixMediaType, zabbixMediaType } from '../helpers/zabbix-media-type';

const params = (name: string): Record<string, string> => JSON.parse(readFileSync(new URL(`./fixtures/zabbix-${name}-params.json`, import.meta.url), 'utf8'));
const URL_OF_INPUT = 'https://intrabot.example.internal/alerts/sources/zabbix-media';
const sent = (name: string) => {
  const run = runZabbixMediaType({ ...params(name), intrabot_url: URL_OF_INPUT });
  expect(run.thrown).toBeUndefined();
  return JSON.parse(run.requests[0]!.body) as Record<string, string>;
};

describe('the Zabbix media type (docs/zabbix/media_intrabot.yaml)', () => {
  it('is an importable export: a webhook media type, readable by Zabbix 6.0 LTS and later', () => {
    const { version, mediaType } = zabbixMediaType();
    expect(version).toBe('6.0');
    expect(mediaType).toMatchObject({ name: 'intrabot', type: 'WEBHOOK' });
    expect(mediaType.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['event_id', 'event_value', 'event_update_status', 'intrabot_url', 'intrabot_token']),
    );
    expect(mediaType.message_templates.map((t) => t.operation_mode)).toEqual(['PROBLEM', 'RECOVERY', 'UPDATE']);
  });

  it('posts a problem as JSON with the bearer token to intrabot_url', () => {
    const run = runZabbixMediaType({ ...params('problem'), intrabot_url: URL_OF_INPUT });
    expect(run.returned).toBe('OK');
    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]).toMatchObject({ url: URL_OF_INPUT, headers: { 'content-type': 'application/json', authorization: 'Bearer sources-token' } });
    expect(JSON.parse(run.requests[0]!.body)).toEqual({
      event_id: '481207',
      status: 'problem',
      severity: 'High',
      host: 'mail-01',
      trigger: 'High memory utilization on mail-01 (>90% for 5m)',
      subject: 'Problem: High memory utilization on mail-01 (>90% for 5m)',
      message: 'Problem started at 09:31:00 on 2026.08.20\nHost: mail-01\nSeverity: High\nOperational data: 93.6 %',
      tags: 'service:mail, team:it-ops',
      opdata: '93.6 %',
      url: 'https://zabbix.example.internal/tr_events.php?triggerid=28741&eventid=481207',
    });
  });

  it('tells a recovery and an update from a problem, and reads a macro Zabbix left unresolved as empty', () => {
    expect(sent('recovery')).toMatchObject({ status: 'recovery', opdata: '' });
    expect(sent('update')).toMatchObject({ status: 'update', message: expect.stringContaining('acknowledged problem') });
  });

  it('sends nothing for an event that is not a trigger event (discovery, autoregistration, internal)', () => {
    const run = runZabbixMediaType({ ...params('problem'), event_source: '3', intrabot_url: URL_OF_INPUT });
    expect(run.returned).toBe('skipped: not a trigger event');
    expect(run.requests).toEqual([]);
  });

  it('fails the alert when intrabot does not answer 202, so Zabbix retries it', () => {
    const run = runZabbixMediaType({ ...params('problem'), intrabot_url: URL_OF_INPUT }, { status: 503, body: '{"error":"store_unavailable"}' });
    expect(String(run.thrown)).toBe('intrabot answered 503: {"error":"store_unavailable"}');
  });
});

describe('format zabbix: what the media type sends, as alerts', () => {
  it('a problem fires at its severity, its host and tags as labels, linked to the problem in Zabbix', () => {
    const [group] = parseAlerts('zabbix', sent('problem'));
    expect(group!.alerts).toEqual([
      expect.objectContaining({
        source: 'zabbix',
        status: 'firing',
        severity: 'error',
        title: 'High memory utilization on mail-01 (>90% for 5m)',
        fingerprint: 'zabbix-481207',
        labels: expect.objectContaining({ host: 'mail-01', service: 'mail', team: 'it-ops' }),
        links: [{ title: 'Problem in Zabbix', url: 'https://zabbix.example.internal/tr_events.php?triggerid=28741&eventid=481207', kind: 'source' }],
      }),
    ]);
  });

  it('its recovery resolves the same alert; an update keeps it firing', () => {
    const firing = parseAlerts('zabbix', sent('problem'))[0]!.alerts[0]!;
    expect(parseAlerts('zabbix', sent('recovery'))[0]!.alerts[0]).toMatchObject({ status: 'resolved', fingerprint: firing.fingerprint });
    expect(parseAlerts('zabbix', sent('update'))[0]!.alerts[0]).toMatchObject({ status: 'firing', fingerprint: firing.fingerprint });
  });
});
