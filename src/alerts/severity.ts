import type { Severity } from './alert';

// Words seen in the wild: Prometheus rules, Grafana, Zabbix (Disaster..Information), Sentry levels
// (fatal..debug), Datadog priorities (P1..P5) and alert types, PagerDuty, syslog.
const SEVERITY_WORDS: Record<string, Severity> = {
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  emerg: 'critical',
  alert: 'critical',
  disaster: 'critical',
  page: 'critical',
  p1: 'critical',
  sev1: 'critical',
  sev0: 'critical',
  error: 'error',
  err: 'error',
  high: 'error',
  major: 'error',
  p2: 'error',
  sev2: 'error',
  danger: 'error',
  warning: 'warning',
  warn: 'warning',
  average: 'warning',
  medium: 'warning',
  minor: 'warning',
  p3: 'warning',
  sev3: 'warning',
  info: 'info',
  information: 'info',
  informational: 'info',
  notice: 'info',
  low: 'info',
  debug: 'info',
  p4: 'info',
  p5: 'info',
  sev4: 'info',
  success: 'info',
};

/**
 * Map a source's severity word onto the normalised scale; unknown or empty words give `none`.
 *
 * @example normalizeSeverity('High') // 'error' (Zabbix: High sits below Disaster)
 */
export function normalizeSeverity(raw: string | undefined): Severity {
  if (!raw) return 'none';
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  return SEVERITY_WORDS[key] ?? 'none';
}
