import { useState } from 'preact/hooks';
import { api } from '../api.mjs';
import { html } from '../html.mjs';
import { Badge, Chips, Loading, PageTitle, Time } from '../ui.mjs';

/** Every bot: what it listens to and does, and per tenant whether it runs (or why not) with the ids provisioning made. */
export function Bots({ sections, now, act }) {
  const view = sections.bots;
  if (!view) return html`<${PageTitle} title="Bots" /><${Loading} what="the bots" />`;
  return html`<${PageTitle} title="Bots" lead=${`${view.bots.length} loaded${view.failed.length ? `, ${view.failed.length} not loaded` : ''}.`} />
    ${
      view.failed.length > 0
        ? html`<section aria-labelledby="failed-title">
            <h2 id="failed-title">Not loaded</h2>
            <ul>
              ${view.failed.map(
                (f) => html`<li key=${f.dir}><${Badge} state="not loaded" /> <strong>${f.name ?? f.dir}</strong>: <span class="detail">${f.error}</span></li>`,
              )}
            </ul>
          </section>`
        : null
    }
    <div class="cards">${view.bots.map((bot) => html`<${BotCard} key=${bot.name} bot=${bot} now=${now} act=${act} />`)}</div>`;
}

function BotCard({ bot, now, act }) {
  const titleId = `bot-${bot.name}`;
  return html`<section class="card" aria-labelledby=${titleId}>
    <h2 id=${titleId}>${bot.displayName} <span class="muted mono">${bot.name}</span></h2>
    ${bot.tenants.length === 0 ? html`<p class="muted">Not deployed to any tenant.</p>` : null}
    ${bot.tenants.map(
      (t) =>
        html`<p key=${t.tenant}>
            ${t.enabled ? html`<${Badge} state="ok" label="running" />` : html`<${Badge} state="switched off" />`} on <strong>${t.tenant}</strong>
            ${t.enabled ? null : html`: <span class="detail">${t.reason}</span>`} ${!t.provisioned ? html` <span class="muted">(provisioning…)</span>` : null}
            ${t.paused ? html`<br /><${Paused} paused=${t.paused} now=${now} />` : null}
            <br />
            <span class="muted">${provisionedIds(t)}</span>
          </p>
          <${PauseControls} bot=${bot.name} tenant=${t} act=${act} />`,
    )}
    <dl>
      <dt>Events</dt>
      <dd><${Chips} items=${bot.events} /></dd>
      <dt>Schedules</dt>
      <dd><${Chips} items=${bot.schedules.map((s) => `${s.job}: ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`)} /></dd>
      <dt>Commands</dt>
      <dd><${Chips} items=${bot.commands.map((c) => `/${c}`)} /></dd>
      <dt>Alert inputs</dt>
      <dd><${Chips} items=${bot.alertInputs} /></dd>
      <dt>Reports</dt>
      <dd><${Chips} items=${bot.reports} /></dd>
      <dt>Targets</dt>
      <dd><${Chips} items=${bot.targets.map((t) => `${t.name} (${t.kind})`)} /></dd>
    </dl>
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
    <p><a href=${`#/deliveries?bot=${encodeURIComponent(bot.name)}`}>Deliveries of ${bot.name}</a></p>
  </section>`;
}

/** A paused bot: since when, and why. */
function Paused({ paused, now }) {
  return html`<${Badge} state="paused" /> since
    <${Time} at=${paused.since} now=${now} />${paused.reason ? html`: <span class="detail">${paused.reason}</span>` : null}
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
  return html`<form
    class="filters"
    onSubmit=${(e) => {
      e.preventDefault();
      act(`Pause ${name}`, () => api.pauseBot(tenant.tenant, bot, reason.trim()), 'paused; its deliveries are kept until it is resumed');
    }}
  >
    <label>Reason <input type="text" maxlength="500" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} placeholder="why (optional)" /></label>
    <button type="submit" aria-label=${`Pause ${name}`}>Pause</button>
  </form>`;
}

/** "bot user 47, webhook 3, incoming oncall 1": the ids provisioning made on the platform. */
function provisionedIds(t) {
  const incoming = Object.entries(t.incoming).map(([name, id]) => `, incoming ${name} ${id}`);
  return `bot user ${t.botUserId ?? '–'}, webhook ${t.webhookId ?? '–'}${incoming.join('')}`;
}
