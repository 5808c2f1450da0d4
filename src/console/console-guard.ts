import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import { SESSION_COOKIE, cookieValue, sameToken, type ConsoleSessions } from './console-sessions';

const LOOPBACK_IPS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The header the console's page sends with every change: a cross-site form cannot, and a cross-site script must ask first (and is not answered). */
export const CONSOLE_HEADER = 'x-intrabot-console';

/** What a request is allowed, once it passed the guard. */
export interface Access {
  /** How it proved itself: nothing needed (sandbox mode), the admin token, or a session cookie. */
  by: 'sandbox' | 'token' | 'session';
  /** The session id, when it came by cookie. */
  session?: string;
}

export interface GuardOptions {
  mode: 'sandbox' | 'connected';
  adminToken: string | undefined;
  sessions: ConsoleSessions;
}

/** Whether the caller is on this machine. */
export function fromLoopback(request: FastifyRequest): boolean {
  return LOOPBACK_IPS.has(request.ip) || request.ip.startsWith('127.');
}

/**
 * Whether the request was addressed to a loopback name (`127.0.0.1`, `localhost`, `[::1]`). A page on
 * another site whose name was made to resolve to 127.0.0.1 (DNS rebinding) addresses its own name, so
 * it cannot read the console through the user's browser even in sandbox mode, where no token is asked.
 */
export function addressedToLoopback(request: FastifyRequest): boolean {
  const host = (request.headers.host ?? '').toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** Loopback callers addressing a loopback name only: for every console route, the static page too. */
export function checkLocal(request: FastifyRequest): void {
  if (!fromLoopback(request)) throw new IntrabotError('forbidden', 'the console answers loopback callers only');
  if (!addressedToLoopback(request)) throw new IntrabotError('forbidden', 'the console answers requests addressed to 127.0.0.1, localhost or [::1] only');
}

/**
 * The admin routes' rule for the console's data: loopback only; outside sandbox mode the admin token,
 * as `Authorization: Bearer` (scripts) or as the session cookie a sign-in gave (the page), and off
 * entirely while no admin token is configured.
 */
export function authorize(request: FastifyRequest, options: GuardOptions): Access {
  checkLocal(request);
  if (options.mode === 'sandbox') return { by: 'sandbox' };
  if (!options.adminToken) throw new IntrabotError('forbidden', 'the console is off: set INTRABOT_ADMIN_TOKEN to use it');
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) {
    if (sameToken(bearer, options.adminToken)) return { by: 'token' };
    throw new IntrabotError('unauthorized', 'wrong admin token');
  }
  const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
  if (session !== undefined && options.sessions.touch(session)) return { by: 'session', session };
  throw new IntrabotError('unauthorized', 'sign in with the admin token (INTRABOT_ADMIN_TOKEN)');
}

/**
 * A change asked with ambient credentials (a cookie, or none in sandbox mode) must come from the
 * console's own page: it carries `X-Intrabot-Console`, which a form on another site cannot send and a
 * script on another site cannot send without a preflight this server never grants, and its `Origin`,
 * when the browser gives one, is this very host. A caller with the bearer token needs neither.
 */
export function checkSameOrigin(request: FastifyRequest, access: Access | undefined): void {
  if (access?.by === 'token') return;
  if (request.headers[CONSOLE_HEADER] !== '1') throw new IntrabotError('forbidden', `changes need the ${CONSOLE_HEADER} header (the console's page sends it)`);
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (hostOf(origin) !== hostOf(`http://${request.headers.host ?? ''}`))
    throw new IntrabotError('forbidden', 'changes are taken from the console page of this host only');
}

/** `host[:port]` of a URL as the browser writes it (a default port left out), or undefined. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * Failed sign-ins are throttled: after `max` within `windowMs`, every attempt is refused until the
 * window has passed, so the admin token cannot be guessed at speed even from this machine.
 */
export class SignInThrottle {
  private failures: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly max = 5,
    private readonly windowMs = 60_000,
  ) {}

  /** Milliseconds until another attempt is taken (0: now). */
  waitMs(): number {
    const now = this.clock.now();
    this.failures = this.failures.filter((at) => now - at < this.windowMs);
    if (this.failures.length < this.max) return 0;
    return this.windowMs - (now - (this.failures[0] ?? now));
  }

  failed(): void {
    this.failures.push(this.clock.now());
  }
}
