import type { Clock } from '../../clock';
import { SandboxHttpError } from './sandbox-error';

/**
 * spec: Limits — 60 requests per minute per token (configurable per server), and per incoming
 * webhook. A fixed one-minute window that starts with the first request, on the sandbox clock.
 * `X-RateLimit-Reset` is sent as unix seconds (the spec leaves the form open; clients accept both).
 */
export class SandboxRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request against `key`; returns the headers to send, or throws 429 with `Retry-After`. */
  hit(key: string, limit: number): Record<string, string> {
    const now = this.clock.now();
    let window = this.windows.get(key);
    // a window that starts ahead of now began before the sandbox clock was moved back: a new one starts
    if (!window || now >= window.start + 60_000 || now < window.start) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const resetAt = window.start + 60_000;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
    };
    if (window.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
      throw new SandboxHttpError(429, 'too_many_requests', 'Too Many Attempts.', {
        ...headers,
        'x-ratelimit-remaining': '0',
        'retry-after': String(retryAfter),
      });
    }
    window.count += 1;
    return { ...headers, 'x-ratelimit-remaining': String(limit - window.count) };
  }

  reset(): void {
    this.windows.clear();
  }
}
