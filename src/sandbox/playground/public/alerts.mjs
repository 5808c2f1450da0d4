// Monitoring inputs: a sample alert of each source a bot's inputs accept, sent as the tool would (the
// sandbox posts it to the runtime's input with the input's credential), to watch it arrive on its wall.
import { useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';
import { Empty, Table } from './ui.mjs';

const SOURCES = {
  alertmanager: 'Prometheus Alertmanager',
  grafana: 'Grafana',
  slack: 'Slack-compatible webhook',
  datadog: 'Datadog (recommended payload)',
  'datadog-default': 'Datadog (default payload)',
  sentry: 'Sentry',
  'uptime-kuma': 'Uptime Kuma',
  'azure-monitor': 'Azure Monitor',
  'gcp-monitoring': 'Google Cloud Monitoring',
  'formatted-webhook': 'Formatted webhook (Zabbix, LibreNMS)',
  github: 'GitHub (workflow runs)',
  gitlab: 'GitLab (pipelines)',
  jenkins: 'Jenkins',
  healthchecks: 'Healthchecks.io',
  newrelic: 'New Relic',
  kibana: 'Kibana',
};

export function AlertSamples({ senders, say }) {
  const [results, setResults] = useState({});
  const [busy, setBusy] = useState('');
  if (!senders || senders.length === 0)
    return html`<${Empty}>No alert input to send to. A bot's <code>alerts:</code> inputs appear here once the runtime beside this sandbox has started (an input of Amazon SNS, whose messages AWS signs, has no sample).</${Empty}>`;
  const inputs = [...new Map(senders.map((s) => [`${s.tenant}/${s.bot}/${s.input}`, s])).values()];
  const send = async (sender) => {
    setBusy(sender.id);
    try {
      const sent = await api.sendAlert(sender.id);
      setResults((r) => ({ ...r, [`${sender.tenant}/${sender.bot}/${sender.input}`]: { ...sent, state: sender.state } }));
      say(sent.ok ? `The ${sender.state} sample was taken (${sent.status}): watch the bot's wall.` : `The input refused the sample: ${sent.status}`, !sent.ok);
    } catch (e) {
      say(`Not sent: ${e.message}`, true);
    } finally {
      setBusy('');
    }
  };
  return html`<p class="lead">
      Each button posts a sample of that source, as its documentation shows it, to the bot's input, with the input's credential; the alert is
      then on the bot's target wall or chat, as a real one would be.
    </p>
    <${Table} id="alert-inputs" caption=${`${inputs.length} alert inputs`} head=${['Bot', 'Input', 'Source', 'Send', 'Last answer']}>
      ${inputs.map((input) => {
        const key = `${input.tenant}/${input.bot}/${input.input}`;
        const result = results[key];
        return html`<tr key=${key}>
          <th scope="row">${input.bot}</th>
          <td><code>${input.input}</code></td>
          <td>${SOURCES[input.source] ?? input.source}</td>
          <td class="actions">
            ${senders
              .filter((s) => `${s.tenant}/${s.bot}/${s.input}` === key)
              .map(
                (s) =>
                  html`<button
                    type="button"
                    disabled=${busy === s.id}
                    aria-label=${`Send a ${s.state} ${SOURCES[s.source] ?? s.source} sample to ${input.bot}/${input.input}`}
                    onClick=${() => send(s)}
                  >
                    ${s.state === 'firing' ? 'Firing' : 'Resolved'}
                  </button>`,
              )}
          </td>
          <td>
            ${result ? html`<span class=${`badge ${result.ok ? 'ok' : 'bad'}`}>${result.status || 'no answer'}</span> <span class="muted">${result.state}</span>` : html`<span class="muted">–</span>`}
          </td>
        </tr>`;
      })}
    </${Table}>`;
}
