// A chat room's messages or one person's direct messages and notifications, newest first, live.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { Empty, Loading } from './ui.mjs';
import { Media, When } from './wall.mjs';

export function Messages({ load, version, empty }) {
  const [messages, setMessages] = useState(undefined);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    load().then(
      (answer) => (setMessages(answer.data), setFailure('')),
      (e) => setFailure(e.message),
    );
  }, [version]);
  if (failure) return html`<p class="error-text" role="alert">${failure}</p>`;
  if (!messages) return html`<${Loading} what="the messages" />`;
  if (messages.length === 0) return html`<${Empty}>${empty}</${Empty}>`;
  return html`<ol class="feed messages">
    ${messages.map(
      (m) =>
        html`<li key=${m.id} class="message">
          <article aria-label=${`${m.kind === 'notification' ? 'Notification' : 'Message'} from ${m.sender?.name ?? 'the platform'}`}>
            <header>
              <strong>${m.sender?.name ?? 'The platform'}</strong>
              ${m.sender?.type === 'bot' ? html` <span class="badge info">bot</span>` : null}
              ${m.kind === 'chat' ? null : html` <span class="badge neutral">${m.kind === 'direct' ? 'direct message' : 'notification'}</span>`}
              <${When} at=${m.created_at} />
            </header>
            ${m.title ? html`<p class="title">${m.title}</p>` : null}
            <p class="body">${m.text}</p>
            <${Media} media=${m.media} />
          </article>
        </li>`,
    )}
  </ol>`;
}
