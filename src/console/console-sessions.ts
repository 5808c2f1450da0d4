import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';

/** The cookie that carries a console session (HttpOnly, SameSite=Strict, path /console). */
export const SESSION_COOKIE = 'intrabot_console';

export interface SessionOptions {
  /** A session ends this long after sign-in, whatever happens (default 12 hours). */
  maxAgeMs?: number;
  /** ...or after this long without a request or an open live stream (default 1 hour). */
  idleMs?: number;
  /** At most this many sessions at once; signing in past it ends the oldest (default 50). */
  maxSessions?: number;
}

interface Session {
  createdAt: number;
  seenAt: number;
}

/**
 * Console sign-ins, in this process's memory: the admin token is exchanged once for a random session
 * id kept in an HttpOnly cookie, so the token never sits where the page's scripts (or anything
 * injected into them) could read it. A restart signs everyone out; so does changing the token.
 * Only a hash of each id is held.
 */
export class ConsoleSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly maxAgeMs: number;
  private readonly idleMs: number;
  private readonly maxSessions: number;

  constructor(
    private readonly clock: Clock,
    options: SessionOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 12 * 60 * 60_000;
    this.idleMs = options.idleMs ?? 60 * 60_000;
    this.maxSessions = options.maxSessions ?? 50;
  }

  /** A new session; answers its id (for the cookie) and how long the cookie should live. */
  create(): { id: string; maxAgeMs: number } {
    const now = this.clock.now();
    this.prune(now);
    while (this.sessions.size >= this.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(hashOf(id), { createdAt: now, seenAt: now });
    return { id, maxAgeMs: this.maxAgeMs };
  }

  /** Whether `id` is a live session; a valid one counts as activity. */
  touch(id: string | undefined): boolean {
    if (!id) return false;
    const key = hashOf(id);
    const session = this.sessions.get(key);
    const now = this.clock.now();
    if (!session) return false;
    if (now - session.createdAt > this.maxAgeMs || now - session.seenAt > this.idleMs) {
      this.sessions.delete(key);
      return false;
    }
    session.seenAt = now;
    return true;
  }

  /** Whether `id` is still live, without counting as activity (asking whether one is signed in is not use). */
  alive(id: string | undefined): boolean {
    if (!id) return false;
    const session = this.sessions.get(hashOf(id));
    const now = this.clock.now();
    return session !== undefined && now - session.createdAt <= this.maxAgeMs && now - session.seenAt <= this.idleMs;
  }

  end(id: string | undefined): void {
    if (id) this.sessions.delete(hashOf(id));
  }

  private prune(now: number): void {
    for (const [key, session] of this.sessions) {
      if (now - session.createdAt > this.maxAgeMs || now - session.seenAt > this.idleMs) this.sessions.delete(key);
    }
  }
}

/** Compares a presented token with the configured one in constant time (both hashed: lengths never leak). */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** The value of one cookie of a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
