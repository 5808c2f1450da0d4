import { html } from '../html.mjs';
import { shortId, span } from '../format.mjs';
import { api } from '../api.mjs';
import { Badge, Empty, Loading, PageTitle, SentText, Table, Time } from '../ui.mjs';

const STATUSES = ['queued', 'in flight', 'retrying', 'dead'];

/** What the bots are sending: queued, in flight, retrying with the last error, dead with the reason; storms being sent as digests. */
export function Outbox({ sections, now, params, navigate, act }) {
  const view = sections.outbox;
  if (!view) return html`<${PageTitle} title="Outbox" /><${Loading} what="the outbox" />`;
  const status = params.get('status') ?? '';
  const rows = view.rows.filter((r) => !status || r.status === status);
  const setStatus = (value) => navigate('outbox', new URLSearchParams(value ? { status: value } : {}));
  return html`<${PageTitle}
      title="Outbox"
      lead="Every message a bot sends waits here until the platform accepted it, paced under the rate budget and retried on 429, 5xx and network faults. Refusals (4xx) go to the dead letters with the platform's message."
    />
    <p>${STATUSES.map((s, i) => html`${i ? ' · ' : ''}<${Badge} state=${s} label=${`${view.counts[s]} ${s}`} />`)}</p>
    <form class="filters" onSubmit=${(e) => e.preventDefault()}>
      <label
        >Status
        <select id="filter-outbox-status" value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any status</option>
          ${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
    </form>
    ${
      rows.length === 0
        ? html`<${Empty}>${status ? `No message ${status}.` : 'The outbox is empty: everything was sent.'}</${Empty}>`
        : html`<${Table}
          id="outbox"
          caption=${`${rows.length} message(s)${status ? `, ${status}` : ''}`}
          head=${['Queued', 'Target', 'Message', 'Status', 'Error or reason', { label: 'Tries', num: true }, 'Entry', 'Action']}
        >
          ${rows.map((row) => html`<${Row} key=${row.id} row=${row} now=${now} act=${act} />`)}
        </${Table}>`
    }
    <${Digests} digests=${view.digests} />`;
}

export function Digests({ digests }) {
  return html`<h2>Coalesced digests</h2>
    ${
      digests.length === 0
        ? html`<p class="muted">
            None being sent. When a target holds more messages than its budget sends in a minute, the queued texts are merged into digests (every text appears,
            whole and in order).
          </p>`
        : html`<${Table} id="digests" caption="Storms being sent as digests" head=${['Target', { label: 'Messages merged', num: true }, { label: 'Parts sent', num: true }, 'Entry']}>
          ${digests.map(
            (d) =>
              html`<tr key=${d.entryId}>
                <td class="mono">${d.target}</td>
                <td class="num">${d.members + 1}</td>
                <td class="num">${d.sent} of ${d.parts}</td>
                <td class="mono" title=${d.entryId}>${shortId(d.entryId)}</td>
              </tr>`,
          )}
        </${Table}>`
    }`;
}

export function Row({ row, now, act }) {
  const canRetry = row.status === 'dead' || row.status === 'retrying';
  return html`<tr data-status=${row.status}>
    <td><${Time} at=${row.enqueuedAt} now=${now} /></td>
    <td class="mono">${row.target}</td>
    <td class="detail">
      <span class="badge">${row.kind}</span>${row.fromAlerts ? html` <span class="badge info">alert</span>` : null}
      <${SentText} text=${row.text || row.summary} />
      ${row.digest ? html`<br /><span class="muted">digest of ${row.digest.members + 1} messages, part ${row.digest.sent} of ${row.digest.parts} sent</span>` : null}
    </td>
    <td><${Badge} state=${row.status} /></td>
    <td class="detail">
      ${row.deadReason ?? row.lastError ?? html`<span class="muted">–</span>`}
      ${row.status === 'retrying' ? html`<br /><span class="muted">next try in ${span(Math.max(0, row.notBefore - now))}</span>` : null}
      ${row.status === 'queued' && row.notBefore > now + 1000 ? html`<br /><span class="muted">not before <${Time} at=${row.notBefore} now=${now} /></span>` : null}
    </td>
    <td class="num">${row.attempts}</td>
    <td class="mono" title=${row.id}>${shortId(row.id)}</td>
    <td>
      <div class="actions">
        ${
          canRetry
            ? html`<button
                type="button"
                aria-label=${`Retry message ${row.id} to ${row.target}`}
                onClick=${() => act(`Retry ${row.kind} to ${row.target}`, () => api.retryOutbox(row.id))}
              >
                Retry
              </button>`
            : null
        }
        ${
          row.status === 'dead'
            ? html`<button
                type="button"
                class="danger"
                aria-label=${`Drop message ${row.id} to ${row.target}`}
                onClick=${() => {
                  if (window.confirm(`Drop this ${row.kind} to ${row.target} for good? It will not be sent.`))
                    act(`Drop ${row.kind} to ${row.target}`, () => api.dropOutbox(row.id));
                }}
              >
                Drop
              </button>`
            : null
        }
      </div>
    </td>
  </tr>`;
}
