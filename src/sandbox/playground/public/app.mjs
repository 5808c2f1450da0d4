// The intrabot playground: the emulated intranet as its employees see it, at the sandbox's address.
// Walls, chat rooms and direct messages, live; act as anyone (post, comment, /command); move the clock;
// beside what a bot answered, the deliveries that made it answer. Preact and htm: no build step.
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';
import { useLive } from './live.mjs';
import { Empty } from './ui.mjs';
import { ClockControls } from './clock.mjs';
import { Wall } from './wall.mjs';
import { Messages } from './messages.mjs';
import { AlertSamples } from './alerts.mjs';
import { Forms, News, People } from './intranet.mjs';

const ACTOR_KEY = 'intrabot-playground-actor';

function parseRoute() {
  const [kind, id] = (location.hash.startsWith('#/') ? location.hash.slice(2) : '').split('/');
  return { kind: kind || 'wall', id: id ? Number(id) : undefined };
}

function useRoute() {
  const [route, setRoute] = useState(parseRoute);
  useEffect(() => {
    const onChange = () => setRoute(parseRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function App() {
  const live = useLive();
  const [directory, setDirectory] = useState(undefined);
  const [failure, setFailure] = useState('');
  const [actorId, setActorId] = useState(() => Number(localStorage.getItem(ACTOR_KEY)) || undefined);
  const [toast, setToast] = useState({ text: '', bad: false });
  const route = useRoute();

  useEffect(() => {
    api.directory().then(setDirectory, (e) => setFailure(e.message));
  }, [live.version]);

  const say = useCallback((text, bad = false) => setToast({ text, bad }), []);
  // a note goes after a while; the live region has read it out by then
  useEffect(() => {
    if (!toast.text) return undefined;
    const timer = setTimeout(() => setToast({ text: '', bad: false }), 8_000);
    return () => clearTimeout(timer);
  }, [toast]);
  const chooseActor = (id) => {
    setActorId(id);
    localStorage.setItem(ACTOR_KEY, String(id));
  };

  if (failure && !directory)
    return html`<main id="main" class="boot">
      <h1>intrabot playground</h1>
      <p class="error-text" role="alert">The sandbox did not answer: ${failure}</p>
    </main>`;
  if (!directory)
    return html`<main id="main" class="boot">
      <h1>intrabot playground</h1>
      <p role="status">Loading…</p>
    </main>`;

  const actor = directory.people.find((p) => p.id === actorId) ?? directory.people.find((p) => !p.is_manager && p.department) ?? directory.people[0];
  const wallId = route.kind === 'wall' ? (route.id ?? directory.walls[0]?.id) : undefined;
  const place =
    route.kind === 'chat'
      ? { title: directory.chats.find((c) => c.id === route.id)?.name ?? `Chat ${route.id}` }
      : route.kind === 'direct'
        ? { title: `${actor?.name ?? 'Someone'}'s messages` }
        : route.kind === 'alerts'
          ? { title: 'Monitoring: send a sample alert' }
          : route.kind === 'news'
            ? { title: 'News and calendar' }
            : route.kind === 'forms'
              ? { title: 'Forms' }
              : route.kind === 'people'
                ? { title: 'Invitations' }
                : { title: directory.walls.find((w) => w.id === wallId)?.name ?? 'Wall' };

  return html`<div class="shell playground">
    <a class="skip" href="#main" onClick=${(e) => (e.preventDefault(), document.getElementById('page-title')?.focus())}>Skip to content</a>
    <header class="topbar">
      <p class="brand">intrabot playground</p>
      <span class="badge info">Sandbox</span>
      <label class="actor">
        Act as
        <select id="actor" value=${actor?.id} onChange=${(e) => chooseActor(Number(e.currentTarget.value))}>
          ${directory.people.map(
            (p) => html`<option value=${p.id}>${p.name}${p.is_manager ? ' (manager)' : ''}${p.department ? `, ${p.department}` : ''}</option>`,
          )}
        </select>
      </label>
      <span class="spacer"></span>
      <${ClockControls} clock=${live.clock} timezone=${directory.clock.timezone} say=${say} />
      <span class=${`live ${live.status === 'live' ? 'on' : live.status === 'offline' ? 'off' : ''}`} role="status">
        <span class="dot" aria-hidden="true"></span>${live.status === 'live' ? 'Live' : live.status === 'offline' ? 'Disconnected' : 'Connecting…'}
      </span>
    </header>
    <nav class="sidenav" aria-label="Places">
      <h2 class="nav-title" id="walls-title">Walls</h2>
      <ul aria-labelledby="walls-title">
        ${directory.walls.map((w) => html`<li key=${`w${w.id}`}><a href=${`#/wall/${w.id}`} aria-current=${w.id === wallId ? 'page' : undefined}>${w.name}</a></li>`)}
      </ul>
      <h2 class="nav-title" id="chats-title">Chat rooms</h2>
      <ul aria-labelledby="chats-title">
        ${directory.chats.map(
          (c) =>
            html`<li key=${`c${c.id}`}>
              <a href=${`#/chat/${c.id}`} aria-current=${route.kind === 'chat' && route.id === c.id ? 'page' : undefined}>${c.name}</a>
            </li>`,
        )}
      </ul>
      <h2 class="nav-title" id="me-title">You</h2>
      <ul aria-labelledby="me-title">
        <li><a href="#/direct" aria-current=${route.kind === 'direct' ? 'page' : undefined}>Direct messages</a></li>
        <li><a href="#/news" aria-current=${route.kind === 'news' ? 'page' : undefined}>News and calendar</a></li>
        <li><a href="#/forms" aria-current=${route.kind === 'forms' ? 'page' : undefined}>Forms</a></li>
      </ul>
      <h2 class="nav-title" id="tools-title">Tools</h2>
      <ul aria-labelledby="tools-title">
        <li><a href="#/alerts" aria-current=${route.kind === 'alerts' ? 'page' : undefined}>Monitoring</a></li>
        <li><a href="#/people" aria-current=${route.kind === 'people' ? 'page' : undefined}>Invitations</a></li>
      </ul>
      <p class="nav-foot"><a href="/about">The sandbox's API and control routes</a></p>
    </nav>
    <main id="main">
      <h1 tabindex="-1" id="page-title">${place.title}</h1>
      <${Place} route=${route} wallId=${wallId} actor=${actor} directory=${directory} version=${live.version} say=${say} />
    </main>
    <div class=${`toast ${toast.bad ? 'bad' : ''}`} role="status" aria-live="polite">${toast.text}</div>
  </div>`;
}

/** What the main area shows: a wall, a chat room, the actor's messages, or the sample alerts. */
function Place({ route, wallId, actor, directory, version, say }) {
  if (route.kind === 'alerts') return html`<${AlertSamples} senders=${directory.senders} say=${say} />`;
  if (route.kind === 'news') return html`<${News} actor=${actor} version=${version} say=${say} />`;
  if (route.kind === 'forms') return html`<${Forms} actor=${actor} version=${version} say=${say} />`;
  if (route.kind === 'people') return html`<${People} actor=${actor} version=${version} say=${say} />`;
  if (route.kind === 'chat')
    return html`<${Messages}
      key=${`chat-${route.id}`}
      load=${() => api.chatMessages(route.id)}
      version=${version}
      empty="Nothing was said in this room yet: bots write here through incoming webhooks."
    />`;
  if (route.kind === 'direct')
    return html`<${Messages}
      key=${`direct-${actor?.id}`}
      load=${() => api.personalMessages(actor.id)}
      version=${version}
      empty=${`No direct message or notification to ${actor?.name} yet.`}
    />`;
  if (wallId === undefined) return html`<${Empty}>This platform has no wall.</${Empty}>`;
  return html`<${Wall} key=${`wall-${wallId}`} wallId=${wallId} actor=${actor} version=${version} say=${say} />`;
}

const root = document.getElementById('app');
// the loading note the server sent goes: the page renders into an empty container
root.textContent = '';
render(html`<${App} />`, root);
