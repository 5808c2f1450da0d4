// The intrabot console: one page, sections by hash route (#/deliveries?bot=ops), data from the
// runtime's live stream. Preact and htm, as ES modules: no build step.
import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';
import { useLive } from './live.mjs';
import { Overview } from './pages/overview.mjs';
import { Bots } from './pages/bots.mjs';
import { Deliveries } from './pages/deliveries.mjs';
import { Outbox } from './pages/outbox.mjs';
import { Rate } from './pages/rate.mjs';
import { Jobs } from './pages/jobs.mjs';
import { Alerts } from './pages/alerts.mjs';
import { Audit } from './pages/audit.mjs';
import { Off, SignIn } from './pages/sign-in.mjs';

const PAGES = [
  { id: 'overview', title: 'Overview', Page: Overview },
  { id: 'bots', title: 'Bots', Page: Bots },
  { id: 'deliveries', title: 'Deliveries', Page: Deliveries },
  { id: 'outbox', title: 'Outbox', Page: Outbox },
  { id: 'rate', title: 'Rate budget', Page: Rate },
  { id: 'jobs', title: 'Jobs', Page: Jobs },
  { id: 'alerts', title: 'Alert inputs', Page: Alerts },
  { id: 'audit', title: 'Audit log', Page: Audit },
];

function parseRoute() {
  const hash = location.hash.startsWith('#/') ? location.hash.slice(2) : '';
  const [id, query = ''] = hash.split('?');
  const page = PAGES.find((p) => p.id === id) ?? PAGES[0];
  return { page, params: new URLSearchParams(query) };
}

function useRoute() {
  const [route, setRoute] = useState(parseRoute);
  useEffect(() => {
    const onChange = () => setRoute(parseRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback((id, params) => {
    const query = params && [...params].length ? `?${params}` : '';
    location.hash = `#/${id}${query}`;
  }, []);
  return { ...route, navigate };
}

function App() {
  const [session, setSession] = useState({ state: 'loading' });
  const check = useCallback(async () => {
    try {
      const s = await api.session();
      if (s.off) setSession({ state: 'off', ...s });
      else if (s.tokenRequired && !s.signedIn) setSession({ state: 'signin', ...s });
      else setSession({ state: 'ready', ...s });
    } catch (e) {
      setSession({ state: 'error', message: e.message });
    }
  }, []);
  useEffect(() => {
    void check();
  }, [check]);

  if (session.state === 'loading')
    return html`<main id="main" class="boot">
      <h1>intrabot console</h1>
      <p role="status">Loading…</p>
    </main>`;
  if (session.state === 'off') return html`<${Off} />`;
  if (session.state === 'signin') return html`<${SignIn} onSignedIn=${check} />`;
  if (session.state === 'error')
    return html`<main id="main" class="boot">
      <h1>intrabot console</h1>
      <p class="error-text" role="alert">The runtime did not answer: ${session.message}</p>
      <button type="button" onClick=${check}>Try again</button>
    </main>`;
  return html`<${Console} session=${session} onSignedOut=${check} />`;
}

function Console({ session, onSignedOut }) {
  const { page, params, navigate } = useRoute();
  const { sections, status, now } = useLive(true, onSignedOut);
  const [toast, setToast] = useState({ text: '', bad: false });
  const first = useRef(true);

  // a new page: its title, and the focus on its heading (the page changed without a load)
  useEffect(() => {
    document.title = `${page.title} · intrabot console`;
    setToast({ text: '', bad: false });
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('page-title')?.focus();
  }, [page.id]);

  useEffect(() => {
    if (!toast.text) return undefined;
    const timer = setTimeout(() => setToast({ text: '', bad: false }), 8000);
    return () => clearTimeout(timer);
  }, [toast]);

  /** Runs an action and says how it went (in a polite live region). */
  const act = useCallback(async (label, run, doneText = 'done') => {
    try {
      await run();
      setToast({ text: `${label}: ${doneText}.`, bad: false });
    } catch (error) {
      if (error.status === 401) onSignedOut();
      setToast({ text: `${label} failed: ${error.message}`, bad: true });
    }
  }, []);

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    onSignedOut();
  };

  const badges = navBadges(sections);
  const { Page } = page;
  return html`<div class="shell">
    <a class="skip" href="#main" onClick=${(e) => (e.preventDefault(), document.getElementById('page-title')?.focus())}>Skip to content</a>
    <header class="topbar">
      <p class="brand">intrabot console</p>
      <span class=${`badge ${session.mode === 'sandbox' ? 'info' : 'neutral'}`}>${session.mode === 'sandbox' ? 'Sandbox mode' : 'Connected mode'}</span>
      <span class="spacer"></span>
      <span class=${`live ${status === 'live' ? 'on' : status === 'offline' ? 'off' : ''}`} role="status">
        <span class="dot" aria-hidden="true"></span>${status === 'live' ? 'Live' : status === 'offline' ? 'Disconnected, retrying' : 'Connecting…'}
      </span>
      ${session.tokenRequired ? html`<button type="button" onClick=${signOut}>Sign out</button>` : null}
    </header>
    <nav class="sidenav" aria-label="Sections">
      <ul>
        ${PAGES.map(
          (p) =>
            html`<li key=${p.id}>
              <a href=${`#/${p.id}`} aria-current=${p.id === page.id ? 'page' : undefined}>
                <span>${p.title}</span>${badges[p.id] ? html`<span class="badge bad count">${badges[p.id]}</span>` : null}
              </a>
            </li>`,
        )}
      </ul>
      ${
        session.playground
          ? html`<p class="nav-foot">
              <a href=${session.playground} target="_blank" rel="noopener">Playground</a>: the sandbox's intranet, to talk to the bots
            </p>`
          : null
      }
    </nav>
    <main id="main">
      <${Page} sections=${sections} now=${now} params=${params} navigate=${navigate} act=${act} />
    </main>
    <div class=${`toast ${toast.bad ? 'bad' : ''}`} role="status" aria-live="polite">${toast.text}</div>
  </div>`;
}

/** What needs a look, per section, as a count beside its link ("2" dead letters...). */
function navBadges({ bots, deliveries, outbox, jobs }) {
  const failedJobs = (jobs?.jobs ?? []).filter((j) => ['failed', 'timeout'].includes(j.lastRuns[0]?.outcome)).length;
  const notLoaded = bots?.failed.length ?? 0;
  const off = (bots?.bots ?? []).flatMap((b) => b.tenants.filter((t) => !t.enabled)).length;
  const label = (n, what) => (n ? `${n} ${what}` : '');
  return {
    // each kind says what it is: a bot that did not load is not one provisioning switched off
    bots: [label(notLoaded, 'not loaded'), label(off, 'off')].filter(Boolean).join(', '),
    deliveries: label(deliveries?.counts.dead ?? 0, 'dead'),
    outbox: label(outbox?.counts.dead ?? 0, 'dead'),
    jobs: label(failedJobs, 'failed'),
  };
}

const root = document.getElementById('app');
// the loading note the server sent goes: the console renders into an empty container
root.textContent = '';
render(html`<${App} />`, root);
