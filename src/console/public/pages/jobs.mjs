import { html } from '../html.mjs';
import { api } from '../api.mjs';
import { clockTime } from '../format.mjs';
import { Badge, Empty, Loading, PageTitle, Table, Time } from '../ui.mjs';

/** Scheduled jobs: the next slot (also in the schedule's zone when it differs), the last runs, and "run now". */
export function Jobs({ sections, now, act }) {
  const view = sections.jobs;
  if (!view) return html`<${PageTitle} title="Jobs" /><${Loading} what="the jobs" />`;
  return html`<${PageTitle}
      title="Jobs"
      lead="Cron jobs run once per slot across replicas. Run now starts a job outside its slot (recorded as manual, under the job's overlap policy); its outcome appears under Last runs."
    />
    ${
      view.jobs.length === 0
        ? html`<${Empty}>No bot has a schedule.</${Empty}>`
        : html`<${Table} id="jobs" caption=${`${view.jobs.length} scheduled job(s)`} head=${['Job', 'Schedule', 'Next run', 'Last runs', 'Action']}>
          ${view.jobs.map((job) => html`<${Row} key=${`${job.tenant}/${job.bot}/${job.job}`} job=${job} now=${now} act=${act} />`)}
        </${Table}>`
    }`;
}

function Row({ job, now, act }) {
  const name = `${job.bot}/${job.job}`;
  return html`<tr data-job=${name}>
    <th scope="row">${name}${job.tenant !== 'sandbox' && job.tenant !== 'default' ? html` <span class="muted">(${job.tenant})</span>` : null}</th>
    <td><code>${job.cron}</code><br /><span class="muted">${job.timezone}</span></td>
    <td>
      <${Time} at=${job.nextSlot} now=${now} />
      ${
        job.nextSlot !== null && clockTime(job.nextSlot, now) !== clockTime(job.nextSlot, now, job.timezone)
          ? html`<br /><span class="muted">${clockTime(job.nextSlot, now, job.timezone)} in ${job.timezone}</span>`
          : null
      }
    </td>
    <td>
      ${
        job.lastRuns.length === 0
          ? html`<span class="muted">never</span>`
          : html`<ul class="runs">
              ${job.lastRuns.map(
                (run) =>
                  html`<li key=${`${run.slot}-${run.started}`}>
                    <${Badge} state=${run.outcome} /> <${Time} at=${run.started} now=${now} />
                    <span class="muted"
                      >${' · '}${run.trigger}${run.finished !== undefined && run.outcome !== 'skipped-late' ? `, ${run.finished - run.started} ms` : ''}${run.skipped ? `, ${run.skipped}${run.capped ? '+' : ''} slots` : ''}</span
                    >
                    ${run.error ? html`<br /><span class="detail">${run.error}</span>` : null}
                  </li>`,
              )}
            </ul>`
      }
    </td>
    <td>
      <button
        type="button"
        class="primary"
        disabled=${job.running}
        aria-label=${`Run now ${name}`}
        onClick=${() => act(`Run ${name}`, () => api.runJob(job.tenant, job.bot, job.job), 'started; its outcome appears under Last runs')}
      >
        ${job.running ? 'Running…' : 'Run now'}
      </button>
    </td>
  </tr>`;
}
