import { describe, expect, it } from 'vitest';
import { labelsFingerprint, stableFingerprint, titleKey } from '../../src/alerts/fingerprint';

describe('labelsFingerprint', () => {
  it("matches Alertmanager's template_test vector for {job=foo, severity=warning}", () => {
    expect(labelsFingerprint({ severity: 'warning', job: 'foo' })).toBe('9266ef3da838ad95');
  });

  it('matches the fingerprint the storm fixture carries for its first alert', () => {
    const labels = {
      alertname: 'TargetDown',
      cluster: 'prod-eu-1',
      job: 'auth-api-metrics',
      namespace: 'auth',
      prometheus: 'monitoring/k8s',
      service: 'auth-api-metrics',
      severity: 'warning',
      team: 'platform',
    };
    expect(labelsFingerprint(labels)).toBe('1cdee1d13fb9fe34');
  });
});

describe('titleKey / stableFingerprint', () => {
  it('gives firing and resolved titles of one alert the same key', () => {
    expect(titleKey('[FIRING:3] prod-eu-1 (monitoring/k8s)')).toBe(titleKey('[RESOLVED] prod-eu-1 (monitoring/k8s)'));
    expect(titleKey('[Triggered on {host:web-03}] Web tier CPU')).toBe('on host web 03 web tier cpu');
    expect(titleKey('🔴 Intranet SSO is down')).toBe(titleKey('✅ Intranet SSO is up'));
  });

  it('is 16 hex characters and depends on every part', () => {
    expect(stableFingerprint('slack', 'a')).toMatch(/^[0-9a-f]{16}$/);
    expect(stableFingerprint('slack', 'a')).not.toBe(stableFingerprint('grafana', 'a'));
  });
});
