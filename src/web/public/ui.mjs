// Small pieces shared by the pages.
import { html } from './html.mjs';
import { clockTime, fullTime, relative } from './format.mjs';

const TONES = {
  handled: 'ok',
  ok: 'ok',
  running: 'busy',
  'in progress': 'busy',
  'in flight': 'busy',
  waiting: 'info',
  queued: 'info',
  ignored: 'neutral',
  retrying: 'warn',
  'skipped-overlap': 'neutral',
  'skipped-late': 'warn',
  timeout: 'bad',
  failed: 'bad',
  dead: 'bad',
  'switched off': 'warn',
  paused: 'warn',
  'not loaded': 'bad',
  failing: 'bad',
  starting: 'info',
  'not deployed': 'neutral',
};

/** A state as text in a tinted pill: the word carries the meaning, the colour only helps. */
export function Badge({ state, label }) {
  return html`<span class=${`badge ${TONES[state] ?? 'neutral'}`}>${label ?? state}</span>`;
}

/** A time on the runtime's clock, in the browser's zone: "14:03:12 (4 min ago)", the full date in the tooltip. */
export function Time({ at, now, relativeOnly }) {
  if (at === null || at === undefined) return html`<span class="muted">–</span>`;
  const iso = new Date(at).toISOString();
  const rel = relative(at, now);
  return html`<time datetime=${iso} title=${fullTime(at)}>${relativeOnly ? rel : html`${clockTime(at, now)} <span class="muted">(${rel})</span>`}</time>`;
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

/** A table in a scrolling frame, with its caption. */
export function Table({ caption, head, children, id }) {
  return html`<div class="table-wrap">
    <table id=${id}>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head.map((col) => html`<th scope="col" class=${col.num ? 'num' : ''}>${col.label ?? col}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${children}
      </tbody>
    </table>
  </div>`;
}

export function Chips({ items, empty = 'none' }) {
  if (!items || items.length === 0) return html`<span class="muted">${empty}</span>`;
  return html`<ul class="chips">
    ${items.map((item) => html`<li title=${item}>${item}</li>`)}
  </ul>`;
}

/** A page's heading: focused when the page is opened, so a screen reader starts there. */
export function PageTitle({ title, lead }) {
  return html`<h1 tabindex="-1" id="page-title">${title}</h1>
    ${lead ? html`<p class="lead">${lead}</p>` : null}`;
}

/** Shown until the stream has sent a section. */
export function Loading({ what }) {
  return html`<p class="muted" role="status">Loading ${what}…</p>`;
}

/**
 * A page's filters (bot, status, outcome...): each a select whose choice is kept in the page's query, so
 * a filtered view can be linked to and survives a reload.
 */
export function Filters({ page, params, navigate, filters }) {
  const set = (key, value) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    navigate(page, next);
  };
  return html`<form class="filters" onSubmit=${(e) => e.preventDefault()}>
    ${filters.map(
      (f) =>
        html`<label
          >${f.label}
          <select id=${`filter-${f.key}`} value=${params.get(f.key) ?? ''} onChange=${(e) => set(f.key, e.currentTarget.value)}>
            <option value="">${f.all}</option>
            ${f.options.map((o) => html`<option value=${o}>${o}</option>`)}
          </select>
        </label>`,
    )}
  </form>`;
}

/** What a message says, as written (line breaks kept); a long one folds after its first lines. */
export function SentText({ text }) {
  if (!text) return html`<span class="muted">(no text)</span>`;
  if (text.length <= 280) return html`<q class="said">${text}</q>`;
  return html`<details class="said">
    <summary>${text.slice(0, 200).replace(/\s+/g, ' ')}…</summary>
    <q class="said">${text}</q>
  </details>`;
}
