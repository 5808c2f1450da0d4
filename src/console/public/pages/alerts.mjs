import { html } from '../html.mjs';
import { Badge, Empty, Loading, PageTitle, Table, Time } from '../ui.mjs';
import { Digests, Row as OutboxRow } from './outbox.mjs';

/** The alert inputs: where monitoring tools post, what they last sent and how it went, their messages in the outbox. */
export function Alerts({ sections, now, act }) {
  const view = sections.alerts;
  if (!view) return html`<${PageTitle} title="Alert inputs" /><${Loading} what="the alert inputs" />`;
  return html`<${PageTitle}
      title="Alert inputs"
      lead="Monitoring tools post to these endpoints; each notification is deduplicated, rendered and queued in the outbox. Counts and notifications are this process's, since it started."
    />
    ${
      view.inputs.length === 0
        ? html`<${Empty}>No bot has an alert input.</${Empty}>`
        : html`<${Table}
          id="alert-inputs"
          caption="Inputs"
          head=${['Input', 'Endpoint', 'Credential', 'Targets', { label: 'Accepted', num: true }, { label: 'Refused', num: true }, { label: 'Failed', num: true }, 'Last notification']}
        >
          ${view.inputs.map(
            (i) =>
              html`<tr key=${`${i.tenant}/${i.bot}/${i.input}`}>
                <th scope="row">${i.bot}/${i.input} <span class="muted">(${i.format})</span></th>
                <td class="mono">POST ${i.path}</td>
                <td>${i.auth === 'query_token' ? '?token=' : i.auth}</td>
                <td>${i.targets.join(', ')}</td>
                <td class="num">${i.counts.accepted}</td>
                <td class="num">${i.counts.refused}</td>
                <td class="num">${i.counts.failed}</td>
                <td>${i.last ? html`<${Notification} n=${i.last} now=${now} />` : html`<span class="muted">none yet</span>`}</td>
              </tr>`,
          )}
        </${Table}>`
    }
    <h2>Last notifications</h2>
    ${
      view.recent.length === 0
        ? html`<p class="muted">No notification since the runtime started.</p>`
        : html`<${Table} id="alert-notifications" caption="Newest first" head=${['When', 'Input', 'Answer', { label: 'Alerts', num: true }, { label: 'Messages', num: true }]}>
          ${view.recent.map(
            (n, index) =>
              html`<tr key=${`${n.at}-${index}`}>
                <td><${Time} at=${n.at} now=${now} /></td>
                <td>${n.bot}/${n.input}</td>
                <td><${Answer} n=${n} /></td>
                <td class="num">${n.accepted ?? '–'}</td>
                <td class="num">${n.queued ?? '–'}</td>
              </tr>`,
          )}
        </${Table}>`
    }
    <h2>Alert messages in the outbox</h2>
    ${
      view.messages.length === 0
        ? html`<p class="muted">None: every alert message was sent.</p>`
        : html`<${Table} id="alert-messages" caption="Queued, retrying or dead" head=${['Queued', 'Target', 'Message', 'Status', 'Error or reason', { label: 'Tries', num: true }, 'Entry', 'Action']}>
          ${view.messages.map((row) => html`<${OutboxRow} key=${row.id} row=${row} now=${now} act=${act} />`)}
        </${Table}>`
    }
    <${Digests} digests=${view.digests} />`;
}

function Notification({ n, now }) {
  return html`<${Time} at=${n.at} now=${now} relativeOnly /> <${Answer} n=${n} />`;
}

function Answer({ n }) {
  if (n.status < 300) return html`<${Badge} state="ok" label=${`${n.status} accepted`} />`;
  const state = n.status === 401 ? 'retrying' : 'failed';
  return html`<${Badge} state=${state} label=${`${n.status} ${n.error ?? ''}`} />${n.message ? html` <span class="detail">${n.message}</span>` : null}`;
}
