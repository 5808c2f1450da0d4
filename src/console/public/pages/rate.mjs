import { html } from '../html.mjs';
import { span } from '../format.mjs';
import { Empty, Loading, PageTitle, Time } from '../ui.mjs';

/** Each rate budget (a tenant's token, an incoming webhook) as a gauge, and over the last 30 minutes. */
export function Rate({ sections, now }) {
  const view = sections.rate;
  if (!view) return html`<${PageTitle} title="Rate budget" /><${Loading} what="the rate budgets" />`;
  return html`<${PageTitle}
      title="Rate budget"
      lead=${`The platform allows 60 requests per minute per token and per incoming webhook. Left: as the platform last said (X-RateLimit-Remaining); the chart shows the last ${span(view.spanMs)}, the least left in each ${span(view.bucketMs)}.`}
    />
    ${
      view.budgets.length === 0
        ? html`<${Empty}>No budget yet.</${Empty}>`
        : html`<div class="cards">${view.budgets.map((b) => html`<${Budget} key=${b.id} budget=${b} now=${now} spanMs=${view.spanMs} />`)}</div>`
    }`;
}

function Budget({ budget, now, spanMs }) {
  const titleId = `budget-${budget.id}`;
  const limit = budget.limit ?? 60;
  return html`<section class="card gauge" aria-labelledby=${titleId} data-budget=${budget.kind}>
    <h2 id=${titleId}>${budget.label}</h2>
    ${
      budget.remaining === null
        ? html`<p class="muted">No request sent under this budget yet.</p>`
        : html`<label for=${`${titleId}-meter`}>${budget.remaining} of ${limit} requests left</label>
            <meter
              id=${`${titleId}-meter`}
              min="0"
              max=${limit}
              low=${Math.ceil(limit * 0.2)}
              high=${Math.ceil(limit * 0.5)}
              optimum=${limit}
              value=${budget.remaining}
            >
              ${budget.remaining} of ${limit}
            </meter>
            <p class="muted">
              ${budget.resetAt !== null && budget.resetAt > now ? `window resets in ${span(budget.resetAt - now)}; ` : ''}${'last answer '}<${Time}
                at=${budget.observedAt}
                now=${now}
                relativeOnly
              />
            </p>`
    }
    <p>
      ${budget.requestsLastMinute} request(s) in the last
      minute${budget.throttledLastMinute ? html`, <strong class="error-text">${budget.throttledLastMinute} answered 429</strong>` : ', no 429'}
    </p>
    <${Spark} samples=${budget.samples} limit=${limit} now=${now} spanMs=${spanMs} label=${budget.label} />
  </section>`;
}

/** Requests left over time, as an area chart; its text alternative gives the lowest and the latest values. */
function Spark({ samples, limit, now, spanMs, label }) {
  if (samples.length === 0) return null;
  const W = 300;
  const H = 80;
  const x = (at) => Math.max(0, Math.min(W, ((at - (now - spanMs)) / spanMs) * W));
  const y = (v) => H - 2 - (Math.max(0, Math.min(limit, v)) / limit) * (H - 4);
  const first = samples[0];
  const last = samples[samples.length - 1];
  // the last value holds until now: the line runs on to the right edge
  const points = [...samples.map((s) => `${x(s.at).toFixed(1)},${y(s.remaining).toFixed(1)}`), `${W},${y(last.remaining).toFixed(1)}`];
  const area = `M${x(first.at).toFixed(1)},${H} L${points.join(' L')} L${W},${H} Z`;
  const lowest = Math.min(...samples.map((s) => s.remaining));
  const throttled = samples.filter((s) => s.throttled > 0);
  const description = `${label}: requests left over the last ${span(spanMs)}; lowest ${lowest} of ${limit}, now ${last.remaining}${throttled.length ? `; 429 answers in ${throttled.length} interval(s)` : ''}.`;
  return html`<figure class="chart">
    <svg class="spark" viewBox=${`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label=${description}>
      <line class="grid" x1="0" x2=${W} y1=${y(limit)} y2=${y(limit)} />
      <line class="grid" x1="0" x2=${W} y1=${y(limit / 2)} y2=${y(limit / 2)} />
      <path class="area" d=${area} />
      <polyline class="line" points=${points.join(' ')} />
      ${throttled.map((s) => html`<rect class="throttled" x=${x(s.at) - 1.5} y="0" width="3" height="6" />`)}
    </svg>
    <figcaption class="axis" aria-hidden="true"><span>${span(spanMs)} ago</span><span>now</span></figcaption>
  </figure>`;
}
