import { html } from '../html.mjs';
import { shortId, span } from '../format.mjs';
import { api } from '../api.mjs';
import { Badge, Empty, Filters, Loading, PageTitle, SentText, Table, Time } from '../ui.mjs';

const STATUSES = ['waiting', 'in progress', 'retrying', 'dead', 'handled', 'ignored'];

/** The deliveries timeline, per bot if asked: received, handled, ignored and why, failing, dead (with replay). */
export function Deliveries({ sections, now, params, navigate, act }) {
  const view = sections.deliveries;
  const bots = sections.bots;
  if (!view) return html`<${PageTitle} title="Deliveries" /><${Loading} what="the deliveries" />`;
  const bot = params.get('bot') ?? '';
  const status = params.get('status') ?? '';
  const names = [...new Set([...(bots?.bots ?? []).map((b) => b.name), ...view.rows.map((r) => r.bot)])].sort();
  const rows = view.rows.filter((r) => (!bot || r.bot === bot) && (!status || r.status === status));
  return html`<${PageTitle}
      title="Deliveries"
      lead="Every event the platform delivered to a bot: waiting, being handled, retrying after a failure, dead (replay it once the cause is fixed), handled, or ignored and why. Newest first; updates live."
    />
    <${Filters}
      page="deliveries"
      params=${params}
      navigate=${navigate}
      filters=${[
        { key: 'bot', label: 'Bot', all: 'All bots', options: names },
        { key: 'status', label: 'Status', all: 'Any status', options: STATUSES },
      ]}
    />
    <${PerBot} view=${view} names=${bot ? [bot] : names} />
    <h2 id="timeline-title">Timeline</h2>
    ${
      rows.length === 0
        ? html`<${Empty}>No delivery${bot ? ` to ${bot}` : ''}${status ? ` with status ${status}` : ''} yet. Deliveries handled more than 6 hours ago are no longer listed.</${Empty}>`
        : html`<${Table}
          id="deliveries"
          caption=${`${rows.length} deliveries${bot ? ` to ${bot}` : ''}${status ? `, ${status}` : ''}`}
          head=${['When', 'Bot', 'Event', 'Status', 'Detail', { label: 'Tries', num: true }, 'Delivery', { label: 'Action' }]}
        >
          ${rows.map((row) => html`<${Row} key=${`${row.tenant}/${row.bot}/${row.deliveryId}`} row=${row} now=${now} act=${act} />`)}
        </${Table}>`
    }`;
}

function PerBot({ view, names }) {
  const zero = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  const counts = names.map((name) => [name, view.perBot[name] ?? zero]);
  return html`<${Table} id="per-bot" caption="Per bot" head=${['Bot', ...STATUSES.map((s) => ({ label: s, num: true }))]}>
    ${counts.map(
      ([name, c]) =>
        html`<tr key=${name}>
          <th scope="row"><a href=${`#/deliveries?bot=${encodeURIComponent(name)}`}>${name}</a></th>
          ${STATUSES.map((s) => html`<td class="num">${c[s] ? html`<${Badge} state=${s} label=${String(c[s])} />` : html`<span class="muted">0</span>`}</td>`)}
        </tr>`,
    )}
  </${Table}>`;
}

function Row({ row, now, act }) {
  const replayable = row.entryId && (row.status === 'dead' || row.status === 'retrying');
  const label = row.status === 'dead' ? 'Replay' : 'Retry now';
  return html`<tr data-status=${row.status} data-delivery=${row.deliveryId}>
    <td><${Time} at=${row.at} now=${now} /></td>
    <td>${row.bot}${row.tenant !== 'sandbox' && row.tenant !== 'default' ? html` <span class="muted">(${row.tenant})</span>` : null}</td>
    <td class="mono">${row.event}${row.recovered ? html` <span class="badge">recovered</span>` : null}</td>
    <td><${Badge} state=${row.status} /></td>
    <td class="detail">
      ${row.detail ?? html`<span class="muted">–</span>`} ${row.durationMs !== null ? html` <span class="muted">(${row.durationMs} ms)</span>` : null}
      ${row.status === 'retrying' && row.nextAttemptAt ? html`<br /><span class="muted">next try in ${span(row.nextAttemptAt - now)}</span>` : null}
      ${
        row.sends.length
          ? html`<ul class="sends">
              ${row.sends.map((send) => html`<li><span class="badge">${send.kind}</span> to ${send.to}: <${SentText} text=${send.text} /></li>`)}
            </ul>`
          : null
      }
    </td>
    <td class="num">${row.attempts ?? html`<span class="muted">–</span>`}</td>
    <td class="mono" title=${row.deliveryId}>${shortId(row.deliveryId)}</td>
    <td>
      ${
        replayable
          ? html`<button
              type="button"
              class=${row.status === 'dead' ? 'primary' : ''}
              aria-label=${`${label} delivery ${row.deliveryId} to ${row.bot}`}
              onClick=${() => act(`${label} ${row.bot} ${row.event}`, () => api.replay(row.entryId))}
            >
              ${label}
            </button>`
          : null
      }
    </td>
  </tr>`;
}
