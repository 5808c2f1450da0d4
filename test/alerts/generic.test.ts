import { describe, expect, it } from 'vitest';
import { parseGeneric } from '../../src/alerts/adapters/generic';
import { GENERIC_PRESETS } from '../../src/alerts/adapters/generic-presets';
import { InvalidInputError } from '../../src/errors';
import { fixture, ownFixture } from './load-fixture';

const one = (body: unknown, mapping: Parameters<typeof parseGeneric>[1]) => {
  const alert = parseGeneric(body, mapping)[0]?.alerts[0];
  if (!alert) throw new Error('no alert');
  return alert;
};

describe('parseGeneric (JSON mapped by templates)', () => {
  it('fills title and labels from dotted paths, array indexes and literals', () => {
    const body = { check: { name: 'Disk', hosts: ['db-01', 'db-02'] }, level: 'warn' };
    const alert = one(body, {
      title: '{{check.name}} on {{check.hosts.1}}',
      severity: '{{level}}',
      labels: { host: '{{check.hosts.0}}', team: '{{owner || "ops"}}' },
    });
    expect(alert).toMatchObject({ title: 'Disk on db-02', severity: 'warning', severityRaw: 'warn', status: 'firing', source: 'generic' });
    expect(alert.labels).toEqual({ host: 'db-01', team: 'ops' });
  });

  it('reads nothing through the prototype chain', () => {
    const alert = one({ name: 'x' }, { title: '{{name}}', summary: '{{constructor}}{{__proto__}}{{name.length}}' });
    expect(alert.summary).toBe('');
  });

  it('names the body field when the title reads nothing', () => {
    const call = () => parseGeneric({ monitor: {} }, { title: '{{monitor.name}}' });
    expect(call).toThrow(InvalidInputError);
    expect(call).toThrow(/body\.monitor\.name/);
  });

  it('rejects a mapping without a title, naming mapping.title', () => {
    expect(() => parseGeneric({}, { summary: 'x' } as never)).toThrow(/mapping\.title/);
  });

  it('rejects a status pattern that is not a valid regular expression', () => {
    expect(() => parseGeneric({}, { title: 'x', status: { value: '{{s}}', resolved: ['~(unclosed'] } })).toThrow(/mapping\.status/);
  });

  it('rejects a body that is not a JSON object', () => {
    expect(() => parseGeneric([1, 2], { title: 'x' })).toThrow(InvalidInputError);
  });

  it('reads common resolved words with the string form of status', () => {
    expect(one({ state: 'OK' }, { title: 't', status: '{{state}}' }).status).toBe('resolved');
    expect(one({ state: 'alerting' }, { title: 't', status: '{{state}}' }).status).toBe('firing');
  });

  describe('Datadog', () => {
    it('maps the recommended payload: recovery resolved, P2 priority, tags as labels, link and snapshot', () => {
      const alert = one(fixture('datadog-recommended.json'), GENERIC_PRESETS.datadog);
      expect(alert).toMatchObject({
        source: 'datadog',
        status: 'resolved',
        title: '[Recovered on {host:web-03}] Web tier CPU saturated',
        severity: 'error',
        severityRaw: 'P2',
        fingerprint: 'datadog-8129746016450291844',
        groupKey: '9bd4ac313a4d1e8fae2482df7b77628d',
        endedAt: '2026-08-20T09:46:00.000Z',
      });
      expect(alert.labels).toMatchObject({ env: 'prod', host: 'web-03', role: 'web', team: 'intranet', monitor_id: '123456789' });
      expect(alert.links).toEqual([{ title: 'Datadog event', url: 'https://app.datadoghq.com/event/event?id=7728405128374699001', kind: 'source' }]);
      expect(alert.images).toEqual(['https://p.datadoghq.com/snapshot/view/dd-snapshots-prod/org_11287/2026-08-20/8a0d3c7e21.png']);
    });

    it('maps the default payload: the title prefix tells the state and trigger and recovery share a fingerprint', () => {
      const triggered = one(fixture('datadog.json'), GENERIC_PRESETS['datadog-default']);
      const recovered = one(ownFixture('datadog-recovered.json'), GENERIC_PRESETS['datadog-default']);
      expect([triggered.status, recovered.status]).toEqual(['firing', 'resolved']);
      expect(triggered.fingerprint).toBe(recovered.fingerprint);
      expect(triggered.description).toContain('CPU on the web tier is saturated');
      expect(triggered).not.toHaveProperty('endedAt');
      expect(recovered.endedAt).toBe('2026-08-20T09:46:00.000Z');
    });
  });

  it('maps the Sentry issue alert: event title, culprit, level, issue id, tags and issue link', () => {
    const group = parseGeneric(fixture('sentry-issue.json'), GENERIC_PRESETS.sentry)[0];
    const alert = group?.alerts[0];
    expect(group?.source).toBe('sentry');
    expect(alert).toMatchObject({
      status: 'firing',
      title: "TypeError: Cannot read properties of undefined (reading 'author')",
      summary: 'renderPost(app/feed/FeedList)',
      severity: 'error',
      fingerprint: 'sentry-5821937401',
      startedAt: '2026-08-20T09:31:07.412Z',
    });
    expect(alert?.labels).toMatchObject({
      environment: 'production',
      release: 'intranet-web@2026.08.19-3',
      handled: 'no',
      rule: 'New or regressed error in intranet-web (production)',
    });
    expect(alert?.links[0]?.url).toBe('https://sentry.io/organizations/example-corp/issues/5821937401/events/c5d0f7f3b14a4d6c9a3b8e2f1d7a6b90/');
  });

  it('maps Uptime Kuma: status 0 fires, status 1 resolves the same monitor, tags become labels', () => {
    const down = one(fixture('uptime-kuma.json'), GENERIC_PRESETS['uptime-kuma']);
    const up = one(ownFixture('uptime-kuma-up.json'), GENERIC_PRESETS['uptime-kuma']);
    expect(down).toMatchObject({
      source: 'uptime-kuma',
      status: 'firing',
      title: 'Intranet SSO',
      summary: 'Request failed with status code 503',
      fingerprint: 'uptime-kuma-12',
    });
    expect(down.labels).toMatchObject({ team: 'identity', monitor_type: 'http', path: 'Identity / Intranet SSO' });
    expect(down.links).toEqual([{ title: 'Monitored URL', url: 'https://sso.example.internal/healthz', kind: 'link' }]);
    expect(up).toMatchObject({ status: 'resolved', fingerprint: 'uptime-kuma-12', endedAt: '2026-08-20T09:41:12.118Z' });
  });
});
