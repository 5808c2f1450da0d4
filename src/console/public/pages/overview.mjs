import { html } from '../html.mjs';
import { plural } from '../format.mjs';
import { Loading, PageTitle, Time } from '../ui.mjs';

/** What needs a look, then one card per section with its numbers. */
export function Overview({ sections, now }) {
  const { bots, deliveries, outbox, rate, jobs, alerts } = sections;
  if (!bots || !deliveries || !outbox || !jobs) return html`<${PageTitle} title="Overview" /><${Loading} what="the overview" />`;
  const attention = needsAttention(sections);
  const off = bots.bots.flatMap((b) => b.tenants.filter((t) => !t.enabled));
  const paused = bots.bots.flatMap((b) => b.tenants.filter((t) => t.paused));
  const next = jobs.jobs.filter((j) => j.nextSlot !== null).sort((a, b) => a.nextSlot - b.nextSlot)[0];
  const lowest = (rate?.budgets ?? []).filter((b) => b.remaining !== null).sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
  const lastAlert = alerts?.recent[0];
  return html`<${PageTitle}
      title="Overview"
      lead=${`Mode: ${bots.mode}. ${plural(bots.tenants.length, 'tenant')}: ${bots.tenants.map((t) => t.id).join(', ')}.`}
    />
    ${bots.provisioning ? html`<${Starting} progress=${bots.provisioning} />` : null}
    <section aria-labelledby="attention-title">
      <h2 id="attention-title">Needs attention</h2>
      ${
        attention.length === 0
          ? html`<p>Nothing: no dead letters, no failed runs, every bot loaded and running.</p>`
          : html`<ul class="attention">
              ${attention.map((a) => html`<li><a href=${a.href}>${a.text}</a></li>`)}
            </ul>`
      }
    </section>
    <h2>At a glance</h2>
    <div class="cards">
      <section class="card" aria-labelledby="c-bots">
        <h3 id="c-bots"><a href="#/bots">Bots</a></h3>
        <p class="stat">${bots.bots.length}</p>
        <dl>
          <dt>Switched off</dt>
          <dd>${off.length}</dd>
          <dt>Paused</dt>
          <dd>${paused.length}</dd>
          <dt>Not loaded</dt>
          <dd>${bots.failed.length}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="c-deliveries">
        <h3 id="c-deliveries"><a href="#/deliveries">Deliveries</a></h3>
        <p class="stat">${deliveries.counts.handled + deliveries.counts.ignored} <span class="muted">recently done</span></p>
        <dl>
          <dt>Waiting</dt>
          <dd>${deliveries.counts.waiting + deliveries.counts['in progress']}</dd>
          <dt>Retrying</dt>
          <dd>${deliveries.counts.retrying}</dd>
          <dt>Dead letters</dt>
          <dd>${deliveries.counts.dead}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="c-outbox">
        <h3 id="c-outbox"><a href="#/outbox">Outbox</a></h3>
        <p class="stat">${outbox.counts.queued + outbox.counts['in flight'] + outbox.counts.retrying} <span class="muted">to send</span></p>
        <dl>
          <dt>Retrying</dt>
          <dd>${outbox.counts.retrying}</dd>
          <dt>Dead letters</dt>
          <dd>${outbox.counts.dead}</dd>
          <dt>Digests</dt>
          <dd>${outbox.digests.length}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="c-rate">
        <h3 id="c-rate"><a href="#/rate">Rate budget</a></h3>
        ${
          lowest
            ? html`<p class="stat">${lowest.remaining} <span class="muted">of ${lowest.limit} left</span></p>
                <p class="muted">${lowest.label} (the lowest)</p>`
            : html`<p class="muted">No request sent yet.</p>`
        }
      </section>
      <section class="card" aria-labelledby="c-jobs">
        <h3 id="c-jobs"><a href="#/jobs">Jobs</a></h3>
        <p class="stat">${jobs.jobs.length}</p>
        ${next ? html`<p>Next: ${next.bot}/${next.job}, <${Time} at=${next.nextSlot} now=${now} relativeOnly /></p>` : null}
      </section>
      <section class="card" aria-labelledby="c-alerts">
        <h3 id="c-alerts"><a href="#/alerts">Alert inputs</a></h3>
        <p class="stat">${alerts?.inputs.length ?? 0}</p>
        ${
          lastAlert
            ? html`<p>Last notification: ${lastAlert.bot}/${lastAlert.input}, <${Time} at=${lastAlert.at} now=${now} relativeOnly /> (${lastAlert.status})</p>`
            : html`<p class="muted">No notification since the runtime started.</p>`
        }
      </section>
    </div>`;
}

/** While start-up provisions the bots: how far it has come, and what happens to deliveries meanwhile. */
function Starting({ progress }) {
  const wait = progress.waiting_s ? `, waiting ${progress.waiting_s} s for the rate budget (the platform allows so many requests a minute)` : '';
  return html`<section class="notice" aria-labelledby="starting-title">
    <h2 id="starting-title">Starting</h2>
    <p role="status">Provisioning ${progress.done} of ${plural(progress.total, 'bot')}${wait}.</p>
    <p>Deliveries are accepted meanwhile, and handled once every bot is provisioned.</p>
  </section>`;
}

function needsAttention({ bots, deliveries, outbox, jobs, rate }) {
  const out = [];
  if (deliveries.counts.dead > 0)
    out.push({ href: '#/deliveries?status=dead', text: `${plural(deliveries.counts.dead, 'delivery', 'deliveries')} in the dead letters` });
  if (outbox.counts.dead > 0) out.push({ href: '#/outbox?status=dead', text: `${plural(outbox.counts.dead, 'message')} in the outbox's dead letters` });
  for (const f of bots.failed) out.push({ href: '#/bots', text: `Bot ${f.name ?? f.dir} did not load` });
  for (const b of bots.bots)
    for (const t of b.tenants) {
      if (!t.enabled) out.push({ href: '#/bots', text: `Bot ${b.name} is switched off on ${t.tenant}: ${t.reason}` });
      if (t.paused) out.push({ href: '#/bots', text: `Bot ${b.name} is paused on ${t.tenant}${t.paused.reason ? `: ${t.paused.reason}` : ''}` });
    }
  for (const j of jobs.jobs) {
    const last = j.lastRuns[0];
    if (last && (last.outcome === 'failed' || last.outcome === 'timeout'))
      out.push({ href: '#/jobs', text: `Job ${j.bot}/${j.job}: last run ${last.outcome}` });
  }
  for (const b of rate?.budgets ?? [])
    if (b.throttledLastMinute > 0) out.push({ href: '#/rate', text: `${b.label}: ${plural(b.throttledLastMinute, '429 answer')} in the last minute` });
  return out;
}
