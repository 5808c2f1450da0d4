import { useState } from 'preact/hooks';
import { api } from '../api.mjs';
import { html } from '../html.mjs';
import { plural } from '../format.mjs';
import { Badge, Chips, Loading, PageTitle, Time } from '../ui.mjs';

/**
 * Every bot as a card that leads with its state on each tenant (running, paused, failing, switched off,
 * starting) and what it does, then what it listens to; bots that did not load are cards too, saying so.
 */
export function Bots({ sections, now, act }) {
  const view = sections.bots;
  if (!view) return html`<${PageTitle} title="Bots" /><${Loading} what="the bots" />`;
  return html`<${PageTitle} title="Bots" lead=${`${view.bots.length} loaded${view.failed.length ? `, ${view.failed.length} not loaded` : ''}.`} />
    <div class="cards">
      ${view.failed.map((f) => html`<${NotLoadedCard} key=${f.dir} failure=${f} />`)}
      ${view.bots.map((bot) => html`<${BotCard} key=${bot.name} bot=${bot} sections=${sections} now=${now} act=${act} />`)}
    </div>`;
}

/** A bot folder that did not load: its name, the state, and why (the other bots run). */
function NotLoadedCard({ failure }) {
  const name = failure.name ?? failure.dir;
  const titleId = `bot-failed-${name}`;
  return html`<section class="card bot-card" aria-labelledby=${titleId}>
    <h2 id=${titleId}>${name}</h2>
    <p class="state"><${Badge} state="not loaded" /> <span class="detail">${failure.error}</span></p>
    <p class="muted">Not running anywhere until its files are fixed; the other bots run.</p>
  </section>`;
}

function BotCard({ bot, sections, now, act }) {
  const titleId = `bot-${bot.name}`;
  const rows = [
    ['Commands', bot.commands.map((c) => `/${c}`)],
    ['Events', bot.events],
    ['Schedules', bot.schedules.map((s) => `${s.job}: ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`)],
    ['Alert inputs', bot.alertInputs],
    ['Reports', bot.reports],
    ['Targets', bot.targets.map((t) => `${t.name} (${t.kind})`)],
  ].filter(([, items]) => items.length > 0);
  return html`<section class="card bot-card" aria-labelledby=${titleId}>
    <h2 id=${titleId}>${bot.displayName} <span class="muted mono">${bot.name}</span></h2>
    ${bot.tenants.length === 0 ? html`<p class="state"><${Badge} state="not deployed" /> <span class="muted">to any tenant</span></p>` : null}
    ${bot.tenants.map((t) => html`<${TenantState} key=${t.tenant} bot=${bot} tenant=${t} sections=${sections} now=${now} />`)}
    <p class="what">${bot.description}</p>
    ${
      rows.length
        ? html`<dl>
            ${rows.map(
              ([label, items]) =>
                html`<dt>${label}</dt>
                  <dd><${Chips} items=${items} /></dd>`,
            )}
          </dl>`
        : null
    }
    ${
      bot.warnings.length
        ? html`<details>
            <summary>${bot.warnings.length} warning(s)</summary>
            <ul>
              ${bot.warnings.map((w) => html`<li>${w}</li>`)}
            </ul>
          </details>`
        : null
    }
    ${bot.tenants.map((t) => html`<p key=${t.tenant} class="muted ids">On ${t.tenant}: ${provisionedIds(t)}</p>`)}
    ${bot.tenants.map((t) => html`<${PauseControls} key=${t.tenant} bot=${bot.name} tenant=${t} act=${act} />`)}
    <p><a href=${`#/deliveries?bot=${encodeURIComponent(bot.name)}`}>Deliveries of ${bot.name}</a></p>
  </section>`;
}

/** The bot's state on one tenant, with what explains it. */
function TenantState({ bot, tenant, sections, now }) {
  const { state, detail } = stateOf(bot, tenant, sections);
  // one template, so that no line break (which the template drops) falls between "on" and the name
  const where = html` on <strong>${tenant.tenant}</strong>`;
  return html`<p class="state">
    <${Badge} state=${state === 'running' ? 'ok' : state} label=${state} />${where}${detail ? html`: <span class="detail">${detail}</span>` : null}
    ${tenant.paused ? html`<br /><${Paused} paused=${tenant.paused} now=${now} />` : null}
  </p>`;
}

/**
 * switched off (provisioning said why) > paused (an operator) > starting (not provisioned yet) > failing
 * (dead or retrying deliveries, or its job's last run failed) > running.
 */
function stateOf(bot, t, sections) {
  if (!t.enabled) return { state: 'switched off', detail: t.reason };
  if (t.paused) return { state: 'paused' };
  if (!t.provisioned) return { state: 'starting', detail: 'being provisioned' };
  const counts = sections.deliveries?.perBot[bot.name];
  const failedJobs = (sections.jobs?.jobs ?? []).filter(
    (j) => j.bot === bot.name && j.tenant === t.tenant && ['failed', 'timeout'].includes(j.lastRuns[0]?.outcome),
  );
  const problems = [
    counts?.dead ? plural(counts.dead, 'dead delivery', 'dead deliveries') : undefined,
    counts?.retrying ? plural(counts.retrying, 'delivery', 'deliveries') + ' retrying' : undefined,
    ...failedJobs.map((j) => `job ${j.job}: last run ${j.lastRuns[0].outcome}`),
  ].filter(Boolean);
  return problems.length ? { state: 'failing', detail: problems.join(', ') } : { state: 'running' };
}

/** A paused bot (its badge is beside): since when, and why. */
function Paused({ paused, now }) {
  return html`Since <${Time} at=${paused.since} now=${now} />${paused.reason ? html`: <span class="detail">${paused.reason}</span>` : null}
    <span class="muted"> (deliveries kept, jobs and messages held)</span>`;
}

/** Pause (with a reason) or resume (handing the held deliveries back, or dropping them) a bot on one tenant. */
function PauseControls({ bot, tenant, act }) {
  const [reason, setReason] = useState('');
  const name = `${bot} on ${tenant.tenant}`;
  if (tenant.paused)
    return html`<div class="actions">
      <button
        type="button"
        class="primary"
        aria-label=${`Resume ${name}`}
        onClick=${() => act(`Resume ${name}`, () => api.resumeBot(tenant.tenant, bot, false), 'resumed; held deliveries and messages go now')}
      >
        Resume
      </button>
      <button
        type="button"
        class="danger"
        aria-label=${`Resume ${name} and drop what waited`}
        onClick=${() => {
          if (window.confirm(`Drop every delivery waiting for ${name}? They will not be handled.`))
            act(`Resume ${name}`, () => api.resumeBot(tenant.tenant, bot, true), 'resumed; the waiting deliveries were dropped');
        }}
      >
        Resume and drop waiting deliveries
      </button>
    </div>`;
  // folded away: the card leads with what the bot is and does, not with a form
  return html`<details class="pause">
    <summary>Pause${tenant.tenant === 'sandbox' ? '' : ` on ${tenant.tenant}`}…</summary>
    <form
      class="filters"
      onSubmit=${(e) => {
        e.preventDefault();
        act(`Pause ${name}`, () => api.pauseBot(tenant.tenant, bot, reason.trim()), 'paused; its deliveries are kept until it is resumed');
      }}
    >
      <label
        >Why (optional)
        <input
          type="text"
          maxlength="500"
          value=${reason}
          onInput=${(e) => setReason(e.currentTarget.value)}
          placeholder="shown on its card and in the audit"
        />
      </label>
      <button type="submit" aria-label=${`Pause ${name}`}>Pause</button>
    </form>
    <p class="muted">Its deliveries are kept, its jobs and messages held, until it is resumed.</p>
  </details>`;
}

/** "bot user 47, webhook 3, incoming oncall 1": the ids provisioning made on the platform. */
function provisionedIds(t) {
  const incoming = Object.entries(t.incoming).map(([name, id]) => `, incoming ${name} ${id}`);
  return `bot user ${t.botUserId ?? '–'}, webhook ${t.webhookId ?? '–'}${incoming.join('')}`;
}
