// A wall as its employees see it: write a post as the person acted as, the posts newest first with their
// media and comments, a comment box under each, and beside each post and comment the deliveries its event
// made to bots (which bot, whether it took it, a link to that runtime's console).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';
import { Empty, Loading } from './ui.mjs';

export function Wall({ wallId, actor, version, say }) {
  const [wall, setWall] = useState(undefined);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    api.wall(wallId).then(
      (answer) => (setWall(answer), setFailure('')),
      (e) => setFailure(e.status === 404 ? 'This wall does not exist (any more).' : e.message),
    );
  }, [wallId, version]);
  if (failure) return html`<p class="error-text" role="alert">${failure}</p>`;
  if (!wall) return html`<${Loading} what="the wall" />`;
  return html`<${Composer}
      id="new-post"
      label=${`Write a post on ${wall.name} as ${actor?.name}`}
      hint="A /command (such as /help) or @Bot mention reaches the bots that listen here."
      action="Post"
      multiline
      send=${(text) => api.post(actor.id, wall.id, text)}
      done=${() => say(`Posted on ${wall.name} as ${actor.name}.`)}
      say=${say}
    />
    ${
      wall.posts.length === 0
        ? html`<${Empty}>No post on this wall yet.</${Empty}>`
        : html`<ol class="feed" aria-label=${`Posts on ${wall.name}, newest first`}>
            ${wall.posts.map((post) => html`<li key=${post.id}><${Post} post=${post} actor=${actor} say=${say} /></li>`)}
          </ol>`
    }`;
}

function Post({ post, actor, say }) {
  const titleId = `post-${post.id}-title`;
  return html`<article class="post card" id=${`post-${post.id}`} aria-labelledby=${titleId} data-post-id=${post.id}>
    <header>
      <h2 class="author" id=${titleId}><${Author} author=${post.author} viaApi=${post.via_api} /></h2>
      <${When} at=${post.created_at} />
    </header>
    <p class="body">${post.body}</p>
    <${Media} media=${post.media} />
    <${Failures} deliveries=${post.deliveries} />
    <${Why} deliveries=${post.deliveries} />
    ${
      post.comments.length === 0
        ? null
        : html`<ol class="comments" aria-label=${`Comments on ${post.author.name}'s post`}>
            ${post.comments.map(
              (c) =>
                html`<li key=${c.id} class=${`comment ${c.via_api || c.author.type === 'bot' ? 'from-api' : ''}`} data-comment-id=${c.id}>
                  <header>
                    <span class="author"><${Author} author=${c.author} viaApi=${c.via_api} /></span> <${When} at=${c.created_at} />
                  </header>
                  <p class="body">${c.body}</p>
                  ${c.via_api ? html`<${Cause} comment=${c} post=${post} />` : null}
                  <${Failures} deliveries=${c.deliveries} />
                  <${Why} deliveries=${c.deliveries} />
                </li>`,
            )}
          </ol>`
    }
    <${Composer}
      id=${`comment-${post.id}`}
      label=${`Comment as ${actor?.name}`}
      action="Comment"
      send=${(text) => api.comment(actor.id, post.id, text)}
      done=${() => say(`Commented as ${actor.name}.`)}
      say=${say}
    />
  </article>`;
}

/**
 * Who wrote it, in words, not only by colour: a bot user says so, and so does what came through the API
 * (a bot's comment is the token's user's, spec: Authentication 4, so "through the API" is what marks it).
 */
function Author({ author, viaApi }) {
  const kind = author.type === 'bot' ? 'bot' : author.is_manager ? 'manager' : '';
  return html`${author.name}${kind ? html` <span class=${`badge ${kind === 'bot' ? 'info' : 'neutral'}`}>${kind}</span>` : null}${
    viaApi ? html` <span class="badge busy">through the API</span>` : null
  }`;
}

/**
 * Beside a bot's reply, the delivery that made it: the post's or an earlier comment's event whose handling
 * sent this very comment (its runtime names each send: "comment to post 12" and its text).
 */
function Cause({ comment, post }) {
  const events = [...post.deliveries, ...post.comments.filter((c) => c.id !== comment.id).flatMap((c) => c.deliveries)];
  const body = comment.body.trim();
  const cause = events.find((d) =>
    d.handling?.sends.some((s) => s.kind === 'comment' && s.to === `post ${post.id}` && s.text.trim() !== '' && body.startsWith(s.text.trim())),
  );
  if (!cause) return null;
  return html`<p class="cause muted">
    ${cause.bot}'s answer to <code>${cause.event}</code>, delivery <code>${cause.delivery_id}</code>${
      cause.console_url ? html` · <a href=${cause.console_url} target="_blank" rel="noopener">its trail in the console</a>` : null
    }
  </p>`;
}

/** A platform time (`2026-12-03T12:48:40+01:00`) as the platform wrote it, short. */
export function When({ at }) {
  if (!at) return null;
  return html`<time class="muted when" datetime=${at} title=${at}>${at.slice(0, 16).replace('T', ' ')}</time>`;
}

/** Images from the sandbox shown; anything else (documents, outside addresses the page may not load) linked. */
export function Media({ media }) {
  if (!media || media.length === 0) return null;
  return html`<ul class="media">
    ${media.map((m, i) => {
      const own = typeof m.url === 'string' && m.url.startsWith(location.origin);
      const name = m.filename ?? m.url;
      return html`<li key=${m.id ?? i}>
        ${m.type === 'image' && own ? html`<img src=${m.url} alt=${`Image ${name}`} loading="lazy" />` : html`<a href=${m.url}>${m.type}: ${name}</a>`}
      </li>`;
    })}
  </ul>`;
}

const HANDLING_TONES = { handled: 'ok', ignored: 'neutral', waiting: 'info', 'in progress': 'busy', retrying: 'warn', dead: 'bad' };

/**
 * The deliveries an event made: which bots got it, whether each took it, and what each did with it (its
 * runtime's console tells: handled and what it sent, ignored and why, failing with its error, dead).
 */
function Why({ deliveries }) {
  if (!deliveries || deliveries.length === 0) return null;
  const refused = deliveries.filter((d) => !d.ok).length;
  const answered = deliveries.filter((d) => d.handling?.sends.length > 0).map((d) => d.bot);
  const to = deliveries.length === 1 ? (deliveries[0].bot ?? 'an endpoint') : `${deliveries.length} bots`;
  const told = `Delivered to ${to}${answered.length ? `, answered by ${answered.join(', ')}` : ''}`;
  return html`<details class="why">
    <summary>${told}${refused ? html` <span class="badge bad">${refused} refused</span>` : null}</summary>
    <ul>
      ${deliveries.map(
        (d) =>
          html`<li key=${d.delivery_id} data-bot=${d.bot}>
            <code>${d.event}</code> to <strong>${d.bot ?? 'an endpoint'}</strong>${d.tenant ? ` (tenant ${d.tenant})` : ''}:
            ${d.ok ? html`<span class="badge ok">accepted ${d.status_code}</span>` : html`<span class="badge bad">${d.status_code ?? 'no answer'}</span> ${d.error ?? ''}`}
            ${d.attempts > 1 ? ` after ${d.attempts} attempts` : ''}${d.handling ? html`, then <${Handled} handling=${d.handling} />` : null}, delivery
            <code>${d.delivery_id}</code>
            ${d.console_url ? html` · <a href=${d.console_url} target="_blank" rel="noopener">in the console</a>` : null}
          </li>`,
      )}
    </ul>
  </details>`;
}

/** What the runtime did with a delivery, in words. */
function Handled({ handling }) {
  const sent = handling.sends.map((s) => `${s.kind} to ${s.to}`).join('; ');
  return html`<span class=${`badge ${HANDLING_TONES[handling.status] ?? 'neutral'}`}>${handling.status}</span>${handling.detail ? ` ${handling.detail}` : ''}${
      sent ? ` (sent: ${sent})` : ''
    }`;
}

/** A bot that failed on this post or comment says so where it happened, not only in the trail. */
function Failures({ deliveries }) {
  const failing = (deliveries ?? []).filter((d) => d.handling && ['retrying', 'dead'].includes(d.handling.status));
  if (failing.length === 0) return null;
  return html`${failing.map(
    (d) =>
      html`<p class="handler-error" key=${d.delivery_id}>
        <span class="badge bad">${d.handling.status === 'dead' ? 'failed' : 'failing, retrying'}</span> ${d.bot}: ${d.handling.detail ?? 'its handler failed'}
        ${d.console_url ? html` · <a href=${d.console_url} target="_blank" rel="noopener">replay it from the console</a>` : null}
      </p>`,
  )}`;
}

/** A text box and its button: sends, clears itself when the sandbox took it, says why when it did not. */
function Composer({ id, label, hint, action, multiline, send, done, say }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const field = useRef(null);
  const submit = async (e) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    try {
      await send(text);
      setText('');
      done();
    } catch (error) {
      say(`Not sent: ${error.message}`, true);
    } finally {
      setBusy(false);
      field.current?.focus();
    }
  };
  const onKey = (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
  };
  return html`<form class=${`composer ${multiline ? 'big' : ''}`} onSubmit=${submit}>
    <label for=${id}>${label}</label>
    ${hint ? html`<p class="muted hint" id=${`${id}-hint`}>${hint}</p>` : null}
    <div class="row">
      ${
        multiline
          ? html`<textarea
              id=${id}
              ref=${field}
              rows="2"
              value=${text}
              aria-describedby=${hint ? `${id}-hint` : undefined}
              onInput=${(e) => setText(e.currentTarget.value)}
              onKeyDown=${onKey}
            ></textarea>`
          : html`<input id=${id} ref=${field} type="text" value=${text} onInput=${(e) => setText(e.currentTarget.value)} />`
      }
      <button type="submit" class="primary" disabled=${busy || !text.trim()}>${action}</button>
    </div>
  </form>`;
}
