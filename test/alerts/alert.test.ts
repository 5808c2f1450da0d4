import { describe, expect, it } from 'vitest';
import { AlertGroupSchema } from '../../src/alerts/alert';
import { parseAlerts } from '../../src/alerts/adapters';
import { fixture, ownFixture } from './load-fixture';

describe('AlertGroupSchema', () => {
  it.each([
    ['alertmanager', 'alertmanager-firing.json', undefined],
    ['alertmanager', 'alertmanager-resolved.json', undefined],
    ['alertmanager', 'alertmanager-storm.json', undefined],
    ['grafana', 'grafana-firing.json', undefined],
    ['grafana', 'grafana-resolved.json', undefined],
    ['slack', 'slack-compatible-text.json', undefined],
    ['slack', 'slack-compatible-blocks.json', undefined],
    ['slack', 'slack-compatible-alertmanager.json', undefined],
    ['generic', 'datadog.json', 'datadog-default'],
    ['generic', 'datadog-recommended.json', 'datadog'],
    ['generic', 'sentry-issue.json', 'sentry'],
    ['generic', 'uptime-kuma.json', 'uptime-kuma'],
  ])('holds what the %s adapter makes of %s', (format, name, mapping) => {
    for (const group of parseAlerts(format, fixture(name), mapping ? { mapping } : {})) {
      expect(AlertGroupSchema.safeParse(group).error).toBeUndefined();
    }
  });

  it('holds our derived recovery fixtures too', () => {
    const groups = [
      ...parseAlerts('generic', ownFixture('datadog-recovered.json'), { mapping: 'datadog-default' }),
      ...parseAlerts('generic', ownFixture('uptime-kuma-up.json'), { mapping: 'uptime-kuma' }),
    ];
    for (const group of groups) expect(AlertGroupSchema.parse(group).status).toBe('resolved');
  });

  it('rejects a link without a URL', () => {
    const group = parseAlerts('slack', { text: 'x' })[0]!;
    const broken = { ...group, alerts: [{ ...group.alerts[0]!, links: [{ title: 't', url: '', kind: 'link' }] }] };
    expect(AlertGroupSchema.safeParse(broken).error?.issues[0]?.path).toEqual(['alerts', 0, 'links', 0, 'url']);
  });
});
