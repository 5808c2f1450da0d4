// The rest of the intranet an employee sees: announcements (confirm one), events and calendar entries;
// forms (answer one); invitations still pending (register someone). Each action is the control API's,
// so the bots receive the events it fires (announcement confirmed, form response created, user registered).
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';
import { Empty, Loading } from './ui.mjs';
import { When } from './wall.mjs';

/** Reads what the page shows for the person acted as, again whenever the platform changed. */
function useIntranet(actor, version) {
  const [view, setView] = useState(undefined);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (!actor) return;
    api.intranet(actor.id).then(
      (answer) => (setView(answer), setFailure('')),
      (e) => setFailure(e.message),
    );
  }, [actor?.id, version]);
  return { view, failure };
}

/** Runs an action, says how it went, and leaves the live stream to show its effect. */
async function act(say, run, done) {
  try {
    await run();
    say(done);
  } catch (e) {
    say(`Not done: ${e.message}`, true);
  }
}

export function News({ actor, version, say }) {
  const { view, failure } = useIntranet(actor, version);
  if (failure) return html`<p class="error-text" role="alert">${failure}</p>`;
  if (!view) return html`<${Loading} what="the news" />`;
  return html`<h2>Announcements</h2>
    ${
      view.announcements.length === 0
        ? html`<${Empty}>No announcement is published.</${Empty}>`
        : html`<ol class="feed">
            ${view.announcements.map(
              (a) =>
                html`<li key=${a.id}>
                  <article class="card announcement" aria-labelledby=${`announcement-${a.id}`}>
                    <header>
                      <h3 id=${`announcement-${a.id}`}>${a.title}</h3>
                      <${When} at=${a.published_at ?? a.created_at} />
                    </header>
                    ${a.subtitle ? html`<p class="title">${a.subtitle}</p>` : null}
                    <p class="body">${a.body}</p>
                    ${
                      a.is_confirmable
                        ? html`<p class="confirm">
                            <span class="muted">${a.confirmations_count} confirmed</span>
                            <${Confirmation} announcement=${a} actor=${actor} say=${say} />
                          </p>`
                        : null
                    }
                  </article>
                </li>`,
            )}
          </ol>`
    }
    <h2>Events</h2>
    <${Dated} rows=${view.events} empty="No event from today on." />
    <h2>Calendar</h2>
    <${Dated} rows=${view.calendar_entries} empty="No calendar entry from today on." />`;
}

/** Whether the person acted as confirmed it, may confirm it (a button), or is not among those it asks. */
function Confirmation({ announcement: a, actor, say }) {
  if (a.confirmed_by_you) return html`<span class="badge ok">Confirmed by ${actor.name}</span>`;
  if (!a.for_you) return html`<span class="muted">For ${a.groups.map((g) => g.name).join(', ')}: not ${actor.name}'s to confirm</span>`;
  return html`<button type="button" class="primary" onClick=${() => act(say, () => api.confirm(a.id, actor.id), `${actor.name} confirmed "${a.title}".`)}>
    Confirm as ${actor.name}
  </button>`;
}

/** Events or calendar entries, soonest first: when, what, where. */
function Dated({ rows, empty }) {
  if (rows.length === 0) return html`<${Empty}>${empty}</${Empty}>`;
  return html`<ul class="dated">
    ${rows.map(
      (r) =>
        html`<li key=${r.id}>
          <time datetime=${r.starts_at}>${r.starts_at}${r.starts_time ? ` ${r.starts_time}` : ''}</time>
          <strong>${r.title}</strong>${r.location ? html` <span class="muted">· ${r.location}</span>` : null}
          ${r.calendar_event_type ? html` <span class="badge neutral">${r.calendar_event_type.name}</span>` : null}
        </li>`,
    )}
  </ul>`;
}

export function Forms({ actor, version, say }) {
  const { view, failure } = useIntranet(actor, version);
  if (failure) return html`<p class="error-text" role="alert">${failure}</p>`;
  if (!view) return html`<${Loading} what="the forms" />`;
  if (view.forms.length === 0) return html`<${Empty}>This platform has no form.</${Empty}>`;
  return html`${view.forms.map((form) => html`<${FormCard} key=${form.id} form=${form} actor=${actor} say=${say} />`)}`;
}

function FormCard({ form, actor, say }) {
  const [answers, setAnswers] = useState({});
  const submit = (e) => {
    e.preventDefault();
    const typed = Object.fromEntries(
      form.fields.map((f) => [
        f.id,
        f.type === 'number' && answers[f.id] !== '' && answers[f.id] !== undefined ? Number(answers[f.id]) : (answers[f.id] ?? ''),
      ]),
    );
    void act(say, () => api.respond(form.id, actor.id, typed).then(() => setAnswers({})), `${actor.name} answered "${form.title}".`);
  };
  const type = { text: 'text', choice: 'text', date: 'date', number: 'number' };
  return html`<section class="card form-card" aria-labelledby=${`form-${form.id}`}>
    <h2 id=${`form-${form.id}`}>${form.title} ${form.type === 'ordinary' ? null : html`<span class="badge neutral">${form.type}</span>`}</h2>
    ${form.description ? html`<p>${form.description}</p>` : null}
    ${form.type === 'whistleblower' ? html`<p class="muted">Responses to a whistleblower form fire no event: no bot hears of them.</p>` : null}
    <form onSubmit=${submit}>
      ${form.fields.map(
        (f) =>
          html`<p class="field">
            <label for=${`form-${form.id}-${f.id}`}>${f.label}</label>
            <input
              id=${`form-${form.id}-${f.id}`}
              type=${type[f.type] ?? 'text'}
              value=${answers[f.id] ?? ''}
              onInput=${(e) => setAnswers({ ...answers, [f.id]: e.currentTarget.value })}
            />
          </p>`,
      )}
      <button type="submit" class="primary">Send as ${actor.name}</button>
    </form>
    ${
      form.your_responses.length > 0
        ? html`<p class="muted">${actor.name}'s responses: ${form.your_responses.map((r) => `#${r.id} (${r.status})`).join(', ')}</p>`
        : null
    }
  </section>`;
}

export function People({ actor, version, say }) {
  const { view, failure } = useIntranet(actor, version);
  if (failure) return html`<p class="error-text" role="alert">${failure}</p>`;
  if (!view) return html`<${Loading} what="the invitations" />`;
  if (view.pending.length === 0) return html`<${Empty}>Nobody is invited and still to register.</${Empty}>`;
  return html`<p class="lead">Invited, not registered yet. Registering one fires <code>user.registered</code>: a welcome bot greets them.</p>
    <ul class="people">
      ${view.pending.map(
        (u) =>
          html`<li key=${u.id}>
            <strong>${u.name}</strong> <span class="muted">${u.title ?? ''} ${u.email}</span>
            <button type="button" onClick=${() => act(say, () => api.register(u.id), `${u.name} registered.`)}>Register ${u.name}</button>
          </li>`,
      )}
    </ul>`;
}
