import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_TOKEN } from './state/records';

/** One route of the control API as the index lists it. */
interface IndexRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  does: string;
}

// the routes a newcomer reaches for first; docs/sandbox.md#the-control-api lists every one
const CONTROL_ROUTES: readonly IndexRoute[] = [
  { method: 'GET', path: '/_sandbox/clock', does: 'the clock everything time-based reads' },
  { method: 'POST', path: '/_sandbox/clock', body: '{"advance_seconds": 3600} or {"now": "..."}', does: 'moves the clock; what became due runs first' },
  { method: 'POST', path: '/_sandbox/reset', body: '{"seed": "demo" | "empty" | "large"}', does: 'starts the platform over with a seed' },
  { method: 'POST', path: '/_sandbox/tokens', body: '{"name", "scopes"}', does: 'a new API token with the scopes given' },
  { method: 'GET', path: '/_sandbox/settings', does: 'rate limit, achievements, company user, time zone (PUT changes them)' },
  { method: 'POST', path: '/_sandbox/users/:id/posts', body: '{"wall_id", "body"}', does: 'an employee posts (fires post.created)' },
  { method: 'POST', path: '/_sandbox/users/:id/comments', body: '{"post_id", "body"}', does: 'an employee comments (fires comment.created)' },
  { method: 'GET', path: '/_sandbox/posts/:id/comments', does: "a post's comments, oldest first (outside the API's rate limit)" },
  { method: 'POST', path: '/_sandbox/faults', body: '{"path", "status"?, "latency_ms"?}', does: 'makes an API route fail or slow down' },
  { method: 'GET', path: '/_sandbox/refs', does: "the seed's named ids: employees, walls, chat rooms" },
  { method: 'GET', path: '/_sandbox/users', does: 'every user of every kind' },
  { method: 'GET', path: '/_sandbox/chats', does: 'the chat rooms (the API has no list)' },
  { method: 'GET', path: '/_sandbox/deliveries', does: 'every outgoing webhook attempt: status, headers, body' },
  { method: 'GET', path: '/_sandbox/messages', does: 'chat messages, direct messages and notifications received' },
  { method: 'GET', path: '/_sandbox/requests', does: 'recent API requests and answers' },
  { method: 'GET', path: '/_sandbox/coverage', does: 'every endpoint of the reference and whether the sandbox has it' },
];

const ABOUT = "An emulator of the intranet platform's Open API, for developing and testing bots; not the real platform.";
const DOCS = 'The API reference: the runtime serves it at /docs and /openapi.json (http://127.0.0.1:3000/docs under npm start).';
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `GET /about`: what the sandbox is, its API and seeded token, and the main control routes, as a small
 * HTML page (the playground at `/` links to it), or as JSON for a caller that asks for it (`Accept:
 * application/json`), which `GET /` answers too.
 */
export function registerRootPage(app: FastifyInstance): void {
  app.get('/about', async (request, reply) => {
    if (wantsJson(request)) return sendJsonIndex(request, reply);
    const origin = `${request.protocol}://${request.host}`;
    return reply
      .type('text/html; charset=utf-8')
      .headers({ 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' })
      .send(htmlIndex(origin));
  });
}

/** The index as JSON: the API's address and token, the main control routes. */
export function sendJsonIndex(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').send(jsonIndex(`${request.protocol}://${request.host}`));
}

/** JSON only when it is asked for ahead of HTML: a browser's Accept names text/html first. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = (request.headers.accept ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

function jsonIndex(origin: string): Record<string, unknown> {
  return {
    name: 'intrabot sandbox',
    about: ABOUT,
    api: { base_url: `${origin}/api/open/v1`, token: SANDBOX_TOKEN, token_scopes: 'every scope', docs: DOCS },
    control: {
      note: 'loopback callers only; no change from another web page (Origin)',
      routes: CONTROL_ROUTES.map((r) => ({ method: r.method, path: r.path, ...(r.body ? { body: r.body } : {}), description: r.does })),
    },
  };
}

function htmlIndex(origin: string): string {
  const api = `${origin}/api/open/v1`;
  const rows = CONTROL_ROUTES.map((r) => {
    const path = r.method === 'GET' && !r.path.includes(':') ? `<a href="${esc(r.path)}">${esc(r.path)}</a>` : esc(r.path);
    const body = r.body ? ` <code>${esc(r.body)}</code>` : '';
    return `<tr><td>${r.method}</td><th scope="row"><code>${path}</code>${body}</th><td>${esc(r.does)}</td></tr>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>intrabot sandbox</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; background: #fff; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
pre { background: #f3f3f3; padding: 0.75rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid #ccc; }
th[scope="row"] { font-weight: normal; }
a { color: #0645ad; }
</style>
</head>
<body>
<main>
<h1>intrabot sandbox</h1>
<p>${esc(ABOUT)} <a href="/">The playground</a> shows it as employees see it.</p>
<h2>The API</h2>
<p>Base URL <code>${esc(api)}</code>, with the seeded token <code>${SANDBOX_TOKEN}</code> (every scope):</p>
<pre>curl -s -H 'Authorization: Bearer ${SANDBOX_TOKEN}' ${esc(api)}/walls</pre>
<p>${esc(DOCS)} <a href="/_sandbox/coverage">/_sandbox/coverage</a> lists which endpoints the sandbox implements.</p>
<h2>The control API</h2>
<p>What the real platform does through its people and admin screens, for loopback callers only (no change is taken from another web page). Bodies are JSON.</p>
<table>
<caption>Main control routes (docs/sandbox.md lists every one)</caption>
<thead><tr><th scope="col">method</th><th scope="col">route</th><th scope="col">what it does</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`;
}

/** Text as HTML: the origin comes from the caller's Host header. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
