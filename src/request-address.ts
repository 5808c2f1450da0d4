/**
 * Whether a request to one of the local control surfaces (the runtime's `/_admin/*` and `/console/*`,
 * the sandbox's `/_sandbox/*`) is addressed to this process and, for a change, sent from its own pages.
 *
 * Two attacks come through the user's own browser, past any loopback-caller check:
 * - DNS rebinding: a page on `evil.example` makes its name resolve to 127.0.0.1 and then reads or calls
 *   the local port as its own origin. Its requests carry `Host: evil.example`, so only loopback names
 *   and the configured public address (`INTRABOT_PUBLIC_URL`, for a TLS proxy on this machine) are taken.
 * - Cross-site requests: a form or a `fetch` on another site may POST without asking (no preflight for a
 *   form's content types); the browser names that site in `Origin`. A change whose `Origin` is present
 *   and is not this very host is refused. Callers that send no `Origin` (curl, the CLI, tests) are not
 *   browsers acting for a page, and keep working.
 *
 * Pure, with no imports, so the sandbox (which imports only api schemas, webhooks signing and the clock
 * from the rest, DESIGN.md) can use the same rule; each caller maps a refusal to its own error class.
 *
 * @example
 * const verdict = checkRequestAddress({ method: 'POST', host: 'localhost:3000', origin: 'http://evil.example' }, {});
 * // { ok: false, rule: 'foreign_origin', message: '...' }
 */

/** Which rule refused a request: the names are also the error codes the answers carry. */
export type AddressRule = 'foreign_host' | 'foreign_origin';

export type AddressVerdict = { ok: true } | { ok: false; rule: AddressRule; message: string };

export interface AddressedRequest {
  method: string;
  /** The `Host` header as sent. */
  host: string | undefined;
  /** The `Origin` header as sent, when there is one. */
  origin: string | undefined;
}

export interface AddressOptions {
  /** The public address of this process (`INTRABOT_PUBLIC_URL`): its host is taken as well as loopback names. */
  publicUrl?: string | undefined;
  /** What the refusal names as refusing ("admin routes", "the sandbox control API"). */
  surface?: string;
  /** What to do when a legitimate caller is refused, added to the foreign-Host message. */
  hint?: string;
}

/** Methods that only read: a foreign `Origin` on them cannot change anything, and CORS keeps the answer from the page. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SHOWN_MAX = 100;

/** The name in a `Host` header, lowercased, without its port (`[::1]` keeps its brackets). */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.replace(/:\d*$/, '');
}

/** Whether a `Host` header names the loopback interface: `127.x.y.z`, `localhost` or `[::1]`, with any port. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  return name === 'localhost' || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** Whether a `Host` header addresses this process: a loopback name or the public address's name. */
export function isOwnHost(host: string | undefined, publicUrl?: string): boolean {
  if (!host) return false;
  if (isLoopbackHost(host)) return true;
  const publicHost = urlOf(publicUrl)?.host;
  return publicHost !== undefined && hostName(publicHost) === hostName(host);
}

/**
 * Whether an `Origin` is this process's own: the scheme, name and port the request was addressed to
 * (`Host`, default ports as the browser leaves them out), or the public address's origin.
 */
export function isOwnOrigin(origin: string, host: string | undefined, publicUrl?: string): boolean {
  const given = urlOf(origin);
  if (!given || !host) return false;
  if (urlOf(publicUrl)?.origin === given.origin) return true;
  // the Host header read with the Origin's scheme, so that `localhost:80` and `http://localhost` agree
  return urlOf(`${given.protocol}//${host}`)?.host === given.host;
}

/** The rule itself: the `Host` on every request, the `Origin` on changes. */
export function checkRequestAddress(request: AddressedRequest, options: AddressOptions = {}): AddressVerdict {
  const surface = options.surface ?? 'this route';
  if (!isOwnHost(request.host, options.publicUrl)) {
    const names = ['127.0.0.1', 'localhost', '[::1]', ...(options.publicUrl ? [hostName(urlOf(options.publicUrl)?.host ?? '')] : [])];
    return {
      ok: false,
      rule: 'foreign_host',
      message: `foreign Host ${shown(request.host)}: only requests addressed to ${names.join(', ')} reach ${surface}${options.hint ? ` (${options.hint})` : ''}`,
    };
  }
  if (request.origin === undefined || READS.has(request.method.toUpperCase())) return { ok: true };
  if (isOwnOrigin(request.origin, request.host, options.publicUrl)) return { ok: true };
  return {
    ok: false,
    rule: 'foreign_origin',
    message: `foreign Origin ${shown(request.origin)}: no change from another web page reaches ${surface} (scripts and the CLI send no Origin)`,
  };
}

function urlOf(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** A header as a refusal shows it: quoted and clipped (it is the caller's own text, but need not be long). */
function shown(value: string | undefined): string {
  if (value === undefined || value === '') return 'none';
  return JSON.stringify(value.length > SHOWN_MAX ? `${value.slice(0, SHOWN_MAX)}…` : value);
}
