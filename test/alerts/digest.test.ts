import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert';
import { parseAlertmanager } from '../../src/alerts/adapters/alertmanager';
import { buildDigest } from '../../src/alerts/digest';
import { fixture } from './load-fixture';

const storm = (): Alert[] => parseAlertmanager(fixture('alertmanager-storm.json'))[0]?.alerts ?? [];
/** The label that names each storm alert's object (pod, deployment, volume, service, node). */
const objectOf = (alert: Alert): string =>
  alert.labels.pod ?? alert.labels.deployment ?? alert.labels.persistentvolumeclaim ?? alert.labels.service ?? alert.labels.node ?? '';

describe('buildDigest', () => {
  it.each([1, 2, 3, 5, 10, 40])('covers all 200 storm alerts within a budget of %i message(s) of 4,000 characters', (budget) => {
    const alerts = storm();
    const digest = buildDigest(alerts, { maxMessages: budget, maxLength: 4000 });
    for (const message of digest.messages) expect(message.length).toBeLessThanOrEqual(4000);
    if (budget >= 3) {
      expect(digest.withinBudget).toBe(true);
      expect(digest.messages.length).toBeLessThanOrEqual(budget);
    }
    const text = digest.messages.join('\n');
    for (const alert of alerts) {
      // each alert: its status and title in some message, next to what names it among same-titled ones
      const status = alert.status === 'firing' ? '[FIRING]' : '[RESOLVED]';
      const alone = alerts.filter((other) => other.title === alert.title && other.status === alert.status).length === 1;
      const name = alone ? '' : objectOf(alert);
      expect(
        digest.messages.some((m) => m.includes(status) && m.includes(alert.title) && m.includes(name)),
        alert.fingerprint,
      ).toBe(true);
    }
    expect(text).toContain('200 alerts: 185 firing, 15 resolved');
  });

  it('still returns every alert, flagged over budget, when even the compact form needs more messages', () => {
    const digest = buildDigest(storm(), { maxMessages: 1, maxLength: 4000 });
    expect(digest.withinBudget).toBe(false);
    expect(digest.detail).toBe('compact');
    expect(digest.messages.length).toBeGreaterThan(1);
  });

  it('shows full detail (summary, runbook) when the budget allows', () => {
    const alerts = parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts ?? [];
    const digest = buildDigest(alerts, { maxMessages: 5, maxLength: 4000 });
    expect(digest.detail).toBe('full');
    expect(digest.messages).toHaveLength(1);
    expect(digest.messages[0]).toContain('[FIRING] critical HighHTTPErrorRate\ncheckout-gateway 5xx ratio above 5% for 5 minutes');
    expect(digest.messages[0]).toContain('Runbook: https://wiki.example.internal/runbooks/checkout/high-error-rate');
    expect(digest.messages[0]).toContain('pod=payments-api-7d9f8c6b5-x2k4q');
  });

  it('lists firing alerts before resolved ones, most severe first', () => {
    const alerts = storm();
    const digest = buildDigest(alerts, { maxMessages: 40, maxLength: 4000 });
    const text = digest.messages.join('\n');
    expect(text.indexOf('[FIRING] critical')).toBeLessThan(text.indexOf('[FIRING] warning'));
    expect(text.lastIndexOf('[FIRING]')).toBeLessThan(text.indexOf('[RESOLVED]'));
  });

  it("says how many alerts the sender left out (Alertmanager's truncatedAlerts)", () => {
    const alerts = parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts ?? [];
    const [message] = buildDigest(alerts, { maxMessages: 1, maxLength: 4000, truncatedAlerts: 7 }).messages;
    expect(message?.split('\n')[0]).toBe('3 alerts: 3 firing, 0 resolved (7 more left out by the sender)');
  });

  it('rejects a budget of no messages', () => {
    expect(() => buildDigest(storm(), { maxMessages: 0, maxLength: 4000 })).toThrow(/maxMessages/);
  });

  it('breaks mentions in alert text', () => {
    const alert: Alert = {
      source: 'slack',
      fingerprint: 'f1',
      status: 'firing',
      severity: 'none',
      title: 'ping @here',
      summary: 'cc @ops',
      labels: {},
      links: [],
    };
    const [message] = buildDigest([alert], { maxMessages: 1, maxLength: 500 }).messages;
    expect(message).toContain('ping @\u200bhere');
    expect(message).not.toMatch(/@[a-z]/);
  });

  it('stays within byte limits when measuring in UTF-8 bytes', () => {
    const digest = buildDigest(storm(), { maxMessages: 30, maxLength: 3000, unit: 'bytes' });
    for (const message of digest.messages) expect(Buffer.byteLength(message)).toBeLessThanOrEqual(3000);
    expect(digest.messages.length).toBeLessThanOrEqual(30);
  });
});
