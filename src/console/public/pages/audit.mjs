import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.mjs';
import { api } from '../api.mjs';
import { Badge, Empty, Filters, Loading, PageTitle, Table, Time } from '../ui.mjs';

const OUTCOMES = ['done', 'failed'];

/**
 * The audit log: what bots using the auditLog middleware did, newest first. The live section carries the
 * newest runs of every bot; with a filter the page asks the runtime for that bot's (or outcome's) own,
 * again each time the live section changes, so a quiet bot's runs show behind a busy one's.
 */
export function Audit({ sections, now, params, navigate }) {
  const live = sections.audit;
  const bot = params.get('bot') ?? '';
  const outcome = params.get('outcome') ?? '';
  const filtered = useFiltered(live, bot, outcome);
  if (!live) return html`<${PageTitle} title="Audit log" /><${Loading} what="the audit log" />`;
  const view = filtered.view ?? { ...live, rows: live.rows.filter((r) => (!bot || r.bot === bot) && (!outcome || r.outcome === outcome)) };
  const names = [...new Set([...live.bots, ...(bot ? [bot] : [])])].sort();
  const several = live.tenants.length > 1;
  return html`<${PageTitle}
      title="Audit log"
      lead="Every run of a bot that uses the auditLog middleware: who set it off, what ran and where, what the bot queued, and whether it failed. Newest first; the last 500 runs per bot, for 30 days; updates live."
    />
    <${Filters}
      page="audit"
      params=${params}
      navigate=${navigate}
      filters=${[
        { key: 'bot', label: 'Bot', all: 'All bots', options: names },
        { key: 'outcome', label: 'Outcome', all: 'Any outcome', options: OUTCOMES },
      ]}
    />
    ${filtered.error ? html`<p class="error-text" role="alert">The runtime did not answer the filter (${filtered.error}): showing the latest runs only.</p>` : null}
    ${
      view.rows.length === 0
        ? html`<${Empty}>No run recorded${bot ? ` for ${bot}` : ''}${outcome ? ` with outcome ${outcome}` : ''}. A bot records its runs when it uses the auditLog middleware (<code>use: [auditLog()]</code>).</${Empty}>`
        : html`<${Table}
          id="audit"
          caption=${`${view.rows.length} run(s)${bot ? ` of ${bot}` : ''}${outcome ? `, ${outcome}` : ''}; ${view.counts.failed} failed`}
          head=${['When', 'Bot', 'Who', 'What', 'Where', 'What the bot did', 'Outcome']}
        >
          ${view.rows.map((row, index) => html`<${Row} key=${`${row.tenant}/${row.bot}/${row.at}/${index}`} row=${row} now=${now} several=${several} />`)}
        </${Table}>`
    }`;
}

/** The runtime's answer for the filters, asked again whenever the live section changes. */
function useFiltered(live, bot, outcome) {
  const [answer, setAnswer] = useState({ key: '', view: undefined, error: undefined });
  const key = `${bot}\n${outcome}`;
  useEffect(() => {
    if (!live || (!bot && !outcome)) return undefined;
    let gone = false;
    const query = { ...(bot ? { bot } : {}), ...(outcome ? { outcome } : {}) };
    api.audit(query).then(
      (view) => !gone && setAnswer({ key, view, error: undefined }),
      (error) => !gone && setAnswer({ key, view: undefined, error: error.message }),
    );
    return () => {
      gone = true;
    };
  }, [live, key]);
  return answer.key === key && (bot || outcome) ? answer : { view: undefined, error: undefined };
}

function Row({ row, now, several }) {
  const failed = row.outcome === 'failed';
  return html`<tr data-outcome=${row.outcome} data-bot=${row.bot} class=${failed ? 'failed' : ''}>
    <td><${Time} at=${row.at} now=${now} /></td>
    <td>${row.bot}${several ? html` <span class="muted">(${row.tenant})</span>` : null}</td>
    <td>${row.who ? html`${row.who.name} <span class="muted">(${row.who.id})</span>` : html`<span class="muted">–</span>`}</td>
    <td><span class="mono">${row.what}</span><br /><span class="muted">${row.kind}</span></td>
    <td>${row.where ?? html`<span class="muted">–</span>`}</td>
    <td>
      ${
        row.did.length === 0
          ? html`<span class="muted">nothing sent</span>`
          : html`<ul class="runs">
              ${row.did.map((d, i) => html`<li key=${i}>${d}</li>`)}
            </ul>`
      }
    </td>
    <td>
      <${Badge} state=${failed ? 'failed' : 'ok'} label=${row.outcome} />
      ${failed && row.error ? html`<br /><span class="detail error-text">${row.error}</span>` : null}
    </td>
  </tr>`;
}
