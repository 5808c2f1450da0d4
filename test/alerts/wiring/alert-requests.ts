import type { Pair } from '../../../src/testing';

/** The sandbox's published credential of the example alerts bot's inputs (sandbox.env). */
export const SANDBOX_ALERT_TOKEN = 'sandbox-alert-token';

/**
 * An Alertmanager notification (webhook_config v4) of one firing alert in a group of its own, so each
 * name makes a new message. `severity: warning` routes it to the Operations wall only.
 */
export function firingAlert(name: string, severity = 'warning'): string {
  const labels = { alertname: name, severity };
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{alertname="${name}"}`,
    status: 'firing',
    receiver: 'intranet',
    groupLabels: { alertname: name },
    commonLabels: labels,
    commonAnnotations: {},
    externalURL: '',
    alerts: [{ status: 'firing', labels, annotations: { summary: `${name} is firing` }, startsAt: '2026-08-20T09:00:00Z', endsAt: '0001-01-01T00:00:00Z' }],
  });
}

/** POSTs a notification to an input of the example alerts bot, over HTTP, as a monitoring tool does. */
export function postAlert(pair: Pair, body: string, input = 'alertmanager'): Promise<Response> {
  return postAlertTo(pair, { bot: 'alerts', input, token: SANDBOX_ALERT_TOKEN }, body);
}

/** POSTs a notification to any bot's alert input, with its bearer token, over HTTP, as a monitoring tool does. */
export function postAlertTo(pair: Pair, to: { bot: string; input: string; token: string }, body: string): Promise<Response> {
  return fetch(`${pair.runtime.inspect().url}/alerts/${to.bot}/${to.input}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${to.token}`, 'content-type': 'application/json' },
    body,
  });
}
