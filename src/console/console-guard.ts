import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import { checkRequestAddress } from '../request-address';
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
  /** `INTRABOT_PUBLIC_URL`: its host is addressed as well as the loopback names. */
  publicUrl?: string | undefined;
}

/** Whether the caller is on this machine. */
export function fromLoopback(request: FastifyRequest): boolean {
  return LOOPBACK_IPS.has(request.ip) || request.ip.startsWith('127.');
}

/**
 * Loopback callers addressing this process only (`Host`), and changes from no other page (`Origin`):
 * the rule of every admin and console route, the static page too. `surface` names the routes in the refusal.
 */
export function checkLocal(request: FastifyRequest, options: { publicUrl?: string | undefined; surface?: string } = {}): void {
  const surface = options.surface ?? 'the console';
  if (!fromLoopback(request)) throw new IntrabotError('forbidden', `only loopback callers reach ${surface}`);
  const verdict = checkRequestAddress(
    { method: request.method, host: request.headers.host, origin: request.headers.origin },
    { surface, publicUrl: options.publicUrl, hint: 'behind a proxy on this machine, set INTRABOT_PUBLIC_URL to the address it forwards' },
  );
  if (!verdict.ok) throw new IntrabotError(verdict.rule, verdict.message);
}

/**
 * The admin routes' rule for the console's data: loopback only; outside sandbox mode the admin token,
 * as `Authorization: Bearer` (scripts) or as the session cookie a sign-in gave (the page), and off
 * entirely while no admin token is configured.
 */
export function authorize(request: FastifyRequest, options: GuardOptions): Access {
  checkLocal(request, { publicUrl: options.publicUrl });
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
 * script on another site cannot send without a preflight this server never grants. (Its `Origin`, when
 * the browser gives one, was held to this very host by `checkLocal` already.) A caller with the bearer
 * token needs no header.
 */
export function checkSameOrigin(request: FastifyRequest, access: Access | undefined): void {
  if (access?.by === 'token') return;
  if (request.headers[CONSOLE_HEADER] !== '1') throw new IntrabotError('forbidden', `changes need the ${CONSOLE_HEADER} header (the console's page sends it)`);
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
