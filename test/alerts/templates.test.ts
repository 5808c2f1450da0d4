import { describe, expect, it } from 'vitest';
import { parseAlerts, type AlertFormat } from '../../src/alerts/adapters';
import { messageView, type AlertMessageView } from '../../src/alerts/alert-view';
import { dedupeGroup } from '../../src/alerts/dedupe';
import { createTemplateEngine } from '../../src/templates/template-engine';
import { fixture } from './load-fixture';

const engine = createTemplateEngine({ dirs: [new URL('../../templates', import.meta.url).pathname], timezone: 'Europe/Berlin', locale: 'en-GB' });

/** The view a fixture gives the templates, every alert a change (as on its first notification). */
function viewOf(format: AlertFormat, name: string, mapping?: string): AlertMessageView {
  const groups = parseAlerts(format, fixture(name), mapping ? { mapping } : {});
  const changes = groups.flatMap((group) => dedupeGroup({}, group, { now: 0 }).changes);
  return messageView(changes, { bot: 'alerts', input: format, target: 'ops', group: groups[0] as (typeof groups)[number] });
}

/** What Handlebars would have written had escaping been on. */
const ESCAPED = /&(?:quot|#x27|#x3D|#x60|lt|gt|amp);/;

const CASES: Array<{ name: string; format: AlertFormat; mapping?: string; status: 'firing' | 'resolved'; expected: string[] }> = [
  {
    name: 'alertmanager-firing.json',
    format: 'alertmanager',
    status: 'firing',
    expected: [
      '3 alerts firing',
      'FIRING [CRITICAL] HighHTTPErrorRate',
      'checkout-gateway 5xx ratio above 5% for 5 minutes',
      'service=checkout-gateway',
      'Runbook: https://wiki.example.internal/runbooks/checkout/high-error-rate',
      'Dashboard: https://grafana.example.internal/d/chk-gw/checkout-gateway?var-cluster=prod-eu-1',
      'Silence: https://alertmanager.example.internal/#/silences/new?filter=',
      '(reason: "CrashLoopBackOff")',
      'Since: 20 Aug 2026, 11:06',
    ],
  },
  {
    name: 'alertmanager-resolved.json',
    format: 'alertmanager',
    status: 'resolved',
    expected: ['3 alerts resolved', 'RESOLVED HighHTTPErrorRate (after 15m 13s)', 'Resolved: 20 Aug 2026, 11:21', 'pod=payments-api-7d9f8c6b5-mz8rt'],
  },
  {
    name: 'grafana-firing.json',
    format: 'grafana',
    status: 'firing',
    expected: [
      'FIRING [CRITICAL] High p99 latency',
      'Value: A=2.3148, B=2.3148, C=1',
      'region=eu-west-1',
      '&orgId=1&to=1787217850417',
      'Silence: https://grafana.example.internal/alerting/silence/new?',
    ],
  },
  { name: 'grafana-resolved.json', format: 'grafana', status: 'resolved', expected: ['RESOLVED High p99 latency', 'region=us-east-1'] },
  {
    name: 'slack-compatible-text.json',
    format: 'slack',
    status: 'firing',
    expected: ['FIRING [ERROR] PROBLEM: High CPU utilization', 'cpu.util = 93.4 % (threshold > 90 %)', 'filter_host=db-02'],
  },
  {
    name: 'slack-compatible-blocks.json',
    format: 'slack',
    status: 'firing',
    expected: ['FIRING [CRITICAL] 🔴 Intranet SSO is down', 'Silence: https://alertmanager.example.internal/#/silences/new?filter='],
  },
  {
    name: 'slack-compatible-alertmanager.json',
    format: 'slack',
    status: 'firing',
    expected: ['[FIRING:3] prod-eu-1 (monitoring/k8s)', 'Runbook: https://wiki.example.internal/runbooks/checkout/high-error-rate'],
  },
  {
    name: 'uptime-kuma.json',
    format: 'generic',
    mapping: 'uptime-kuma',
    status: 'firing',
    expected: ['FIRING Intranet SSO', 'Request failed with status code 503', 'https://sso.example.internal/healthz'],
  },
  {
    name: 'sentry-issue.json',
    format: 'generic',
    mapping: 'sentry',
    status: 'firing',
    expected: [
      'FIRING [ERROR] TypeError: Cannot read properties of undefined',
      'environment=production',
      'Source: https://sentry.io/organizations/example-corp/issues/5821937401/',
    ],
  },
  {
    name: 'datadog.json',
    format: 'generic',
    mapping: 'datadog-default',
    status: 'firing',
    expected: ['FIRING [Triggered on {host:web-03}] Web tier CPU saturated', '**system.cpu.user**'],
  },
  {
    name: 'datadog-recommended.json',
    format: 'generic',
    mapping: 'datadog',
    status: 'resolved',
    expected: ['RESOLVED [Recovered on {host:web-03}] Web tier CPU saturated', 'was <= 90.0 on average', 'host=web-03'],
  },
];

describe('templates/alerts', () => {
  it.each(CASES)('renders $name through alerts/$status with its important text, unescaped', ({ name, format, mapping, status, expected }) => {
    const view = viewOf(format, name, mapping);
    expect(view.status).toBe(status);
    const text = engine.render(`alerts/${status}`, view);
    for (const piece of expected) expect(text).toContain(piece);
    expect(text).not.toMatch(ESCAPED);
  });

  it.each(CASES)('renders $name through alerts/digest naming every alert', ({ name, format, mapping }) => {
    const view = viewOf(format, name, mapping);
    const text = engine.render('alerts/digest', view);
    const lines = text.split('\n').filter((line) => /^(🔥 FIRING|✅ RESOLVED)/.test(line));
    expect(lines).toHaveLength(view.count);
    view.alerts.forEach((alert, i) => expect(lines[i]).toContain(alert.title));
    expect(text).not.toMatch(ESCAPED);
  });

  it('makes firing and resolved look different', () => {
    const firing = engine.render('alerts/firing', viewOf('alertmanager', 'alertmanager-firing.json'));
    const resolved = engine.render('alerts/resolved', viewOf('alertmanager', 'alertmanager-resolved.json'));
    expect(firing).toMatch(/^🔥/);
    expect(resolved).toMatch(/^✅/);
    expect(firing).not.toContain('RESOLVED');
    expect(resolved).not.toContain('FIRING');
  });

  it('shows a lone alert without a count header', () => {
    const text = engine.render('alerts/firing', viewOf('generic', 'uptime-kuma.json', 'uptime-kuma'));
    expect(text.split('\n')[0]).toBe('🔥 FIRING Intranet SSO');
  });

  it('lists the storm fixture in the digest, one line per alert', () => {
    const view = viewOf('alertmanager', 'alertmanager-storm.json');
    const text = engine.render('alerts/digest', view);
    expect(view.count).toBe(200);
    expect(text.match(/^🔥 FIRING/gm)).toHaveLength(view.firingCount);
    expect(text.match(/^✅ RESOLVED/gm)).toHaveLength(view.resolvedCount);
    expect(text).toContain(`${view.firingCount} alerts firing`);
  });

  it('cannot be made to mention anyone or form markup by alert text', () => {
    const body = { text: '*Disk full* @everyone <b>now</b> <!here>' };
    const [group] = parseAlerts('slack', body);
    const view = messageView(dedupeGroup({}, group as never, { now: 0 }).changes, { bot: 'b', input: 'i', target: 't', group: group as never });
    const text = engine.render('alerts/firing', view);
    expect(text).toContain('Disk full');
    expect(text).not.toMatch(/@everyone|@here|<b>/);
  });
});
